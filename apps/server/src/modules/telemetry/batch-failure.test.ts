import { describe, expect, it } from 'vitest';
import { isWorthRetrying as isDatabaseUnavailable, sqlState } from './retry-or-split';
import { DEAD_LETTER, deadLetterRow, failureReason, safeText } from './dead-letters';

/** The verdicts ingestion makes on a failed batch (docs/mqtt.md "Retry or dead letter"). */

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
/** drizzle's wrapper: quotes the statement and its parameters, the driver's error as `cause`. */
const wrapped = (cause: Error, params: string) =>
  Object.assign(new Error(`Failed query: insert into x values ($1)\nparams: ${params}`), { cause });

describe('isDatabaseUnavailable', () => {
  it('retries what says the database cannot be reached', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('53300', 'sorry, too many clients already'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('40P01', 'deadlock detected'))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly'), '[]'))).toBe(true);
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new AggregateError([refused], ''))).toBe(true);
  });

  it('judges data errors and thrown bugs, whatever their text quotes', () => {
    expect(isDatabaseUnavailable(pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('23514', 'violates check constraint'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('42703', 'column does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('XX000', 'internal error'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    // A device's text in the quoted parameters is never read as the cause.
    expect(
      isDatabaseUnavailable(wrapped(pgError('22P05', 'unsupported Unicode escape'), 'connection terminated')),
    ).toBe(false);
    expect(isDatabaseUnavailable(new Error('Failed query: … params: Connection terminated unexpectedly'))).toBe(false);
    expect(sqlState(wrapped(pgError('23505', 'duplicate key'), ''))).toBe('23505');
  });
});

describe('dead letters', () => {
  it('escapes what PostgreSQL refuses and clips', () => {
    expect(safeText('a\u0000b\u001Fc\td', 100)).toBe('a\\u0000b\\u001fc\td');
    expect(safeText('x\uD800y', 100)).toBe('x\uFFFDy');
    expect(safeText('ab\uD83D\uDE00', 3)).toBe('ab\uFFFD');
  });

  it('names the SQLSTATE and PostgreSQL’s message, not the wrapper quoting the statement', () => {
    const reason = failureReason(wrapped(pgError('23514', 'new row violates check constraint "x"'), 'secret'));
    expect(reason).toBe('23514 new row violates check constraint "x"');
    expect(failureReason(new TypeError('boom'))).toBe('boom');
  });

  it('makes a row whose every text is safe, under the topic’s tenant', () => {
    const row = deadLetterRow(
      {
        topic: 'mes/t1/D1/telemetry',
        payload: Buffer.from('{"values":{"a\u0000b":1}}'),
        qos: 1,
        retain: false,
        clientId: 'c\u0000',
        receivedAt: new Date(0),
      },
      '22021 invalid byte sequence',
    );
    expect(row).toMatchObject({
      tenantId: 't1',
      topic: 'mes/t1/D1/telemetry',
      clientId: 'c\\u0000',
      deviceCode: 'D1',
      parsedOk: false,
      error: `${DEAD_LETTER}: 22021 invalid byte sequence`,
    });
    expect(row.payload).toBe('{"values":{"a\\u0000b":1}}');
    expect(Object.values(row).some((v) => typeof v === 'string' && v.includes('\u0000'))).toBe(false);
  });

  it('keeps a topic whose device level holds a control character under the platform tenant, escaped', () => {
    const row = deadLetterRow(
      {
        topic: 'mes/t1/D\u00001/telemetry',
        payload: Buffer.from('{}'),
        qos: 1,
        retain: false,
        clientId: '',
        receivedAt: new Date(0),
      },
      '22021 invalid byte sequence',
    );
    expect(row).toMatchObject({ tenantId: '000000', topic: 'mes/t1/D\\u00001/telemetry', deviceCode: '' });
  });
});
