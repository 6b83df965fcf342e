import { describe, expect, it } from 'vitest';
import { MASK, MAX_LOGGED_BODY_BYTES, MAX_PARAMS_CHARS, maskSecrets, paramsText, truncate } from './masking';

describe('maskSecrets', () => {
  it('masks password, token, secret, key and credential names at any depth, whatever the case', () => {
    const masked = maskSecrets({
      username: 'admin',
      password: 'md5hex',
      Refresh_Token: 'r',
      oss: { accessKey: 'AK', secretKey: 'SK', endpoint: 'https://oss' },
      list: [{ apiKey: 'k', name: 'n' }],
      userCredentials: 'c',
      newPass: 'p',
    });
    expect(masked).toEqual({
      username: 'admin',
      password: MASK,
      Refresh_Token: MASK,
      oss: { accessKey: MASK, secretKey: MASK, endpoint: 'https://oss' },
      list: [{ apiKey: MASK, name: 'n' }],
      userCredentials: MASK,
      newPass: MASK,
    });
  });

  it('leaves plain values and the original object alone', () => {
    const input = { password: 'x' };
    expect(maskSecrets('text')).toBe('text');
    expect(maskSecrets(null)).toBeNull();
    maskSecrets(input);
    expect(input.password).toBe('x');
  });
});

describe('paramsText', () => {
  const base = { contentType: 'application/json', contentLength: '10' };

  it('joins query and body with secrets masked', () => {
    const text = paramsText({ ...base, query: { id: '1' }, body: { password: 'secret-value', name: 'n' } });
    expect(JSON.parse(text)).toEqual({ query: { id: '1' }, body: { password: MASK, name: 'n' } });
    expect(text).not.toContain('secret-value');
  });

  it('is empty without parameters', () => {
    expect(paramsText({ ...base, query: {}, body: undefined })).toBe('');
  });

  it('names multipart, raw and oversized bodies instead of recording them', () => {
    expect(
      paramsText({ query: {}, body: { file: 'x' }, contentType: 'multipart/form-data; b=1', contentLength: '5' }),
    ).toBe('{"body":"(multipart)"}');
    expect(paramsText({ ...base, query: {}, body: 'password=x' })).toBe('{"body":"(text, 10 chars)"}');
    const big = String(MAX_LOGGED_BODY_BYTES + 1);
    expect(paramsText({ ...base, contentLength: big, query: {}, body: { password: 'x' } })).toBe(
      `{"body":"(${big} bytes)"}`,
    );
  });

  it('cuts long parameters', () => {
    const text = paramsText({ ...base, query: { q: 'x'.repeat(MAX_PARAMS_CHARS * 2) }, body: undefined });
    expect(text.length).toBeLessThan(MAX_PARAMS_CHARS + 20);
    expect(text.endsWith('…(已截断)')).toBe(true);
    expect(truncate('abc', 5)).toBe('abc');
  });
});
