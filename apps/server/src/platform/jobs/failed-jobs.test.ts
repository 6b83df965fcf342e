import { describe, expect, it } from 'vitest';
import { errorMessageOf } from './failed-jobs';

describe('errorMessageOf', () => {
  it('reads the message of a serialised error, a timeout and a shutdown', () => {
    expect(errorMessageOf({ name: 'Error', message: 'boom', stack: '...' })).toBe('boom');
    expect(errorMessageOf({ value: { message: 'job failed by timeout in active state' } })).toBe(
      'job failed by timeout in active state',
    );
    expect(errorMessageOf({ value: 'pg-boss shut down while active' })).toBe('pg-boss shut down while active');
    expect(errorMessageOf(null)).toBe('');
  });
});
