import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows the outage SQLSTATEs: class 08, shutdown, starting up, no slot left', () => {
    for (const code of ['08000', '08003', '08006', '08001', '08P01', '57P01', '57P02', '57P03', '53300']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
  });

  it('knows the socket failures and node-postgres messages of a lost connection', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
  });

  it('looks through wrappers: a cause chain and an AggregateError of a dual-stack connect', () => {
    const pgError = new Error('Connection terminated unexpectedly');
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: pgError }))).toBe(true);
    // pg-pool's connect timeout wraps whatever the socket said.
    const timeout = new Error('Connection terminated due to connection timeout', { cause: new Error('x') });
    expect(isDatabaseUnavailable(timeout)).toBe(true);
    const aggregate = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '');
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
  });

  it('takes a statement error for what it is, even when its text quotes "connection terminated"', () => {
    for (const code of ['23505', '22P02', '22021', '42P01', '40001', '57014']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    }
    // Drizzle's wrapper quotes the parameters; PostgreSQL's message may quote the bad value.
    const quoted = withCode('22P02', 'invalid input syntax for type integer: "Connection terminated unexpectedly"');
    expect(isDatabaseUnavailable(quoted)).toBe(false);
    const wrapper = new Error('Failed query: insert …\nparams: Connection terminated unexpectedly', {
      cause: withCode('23505', 'duplicate key value'),
    });
    expect(isDatabaseUnavailable(wrapper)).toBe(false);
  });

  it('says no to anything else', () => {
    for (const value of [undefined, null, 'Connection terminated', 42, {}, new Error('boom'), new TypeError('x')]) {
      expect(isDatabaseUnavailable(value)).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('Cannot use a pool after calling end on the pool'))).toBe(false);
  });
});
