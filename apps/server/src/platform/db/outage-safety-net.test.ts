import { afterEach, describe, expect, it } from 'vitest';
import { installOutageSafetyNet, SAFETY_NET_MARK } from './outage-safety-net';

/** Runs the handlers the safety net adds, without throwing anything at the test runner itself. */
function withSafetyNet() {
  const before = {
    exception: process.listeners('uncaughtException'),
    rejection: process.listeners('unhandledRejection'),
  };
  const lines: { level: string; message: string }[] = [];
  const exits: number[] = [];
  installOutageSafetyNet(
    {
      error: (_d, message) => lines.push({ level: 'error', message }),
      fatal: (_d, message) => lines.push({ level: 'fatal', message }),
    },
    (code) => exits.push(code),
  );
  const added = {
    exception: process.listeners('uncaughtException').filter((l) => !before.exception.includes(l)),
    rejection: process.listeners('unhandledRejection').filter((l) => !before.rejection.includes(l)),
  };
  const remove = () => {
    for (const l of added.exception) process.off('uncaughtException', l);
    for (const l of added.rejection) process.off('unhandledRejection', l);
  };
  return { added, lines, exits, remove };
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('the outage safety net', () => {
  it('logs a database connection error nothing handled and keeps the process; anything else exits', () => {
    const net = withSafetyNet();
    cleanup = net.remove;
    const [onException] = net.added.exception;
    const [onRejection] = net.added.rejection;
    onException?.(new Error('Connection terminated unexpectedly'), 'uncaughtException');
    onRejection?.(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Promise.resolve(),
    );
    expect(net.exits).toEqual([]);
    expect(net.lines.map((l) => l.level)).toEqual(['error', 'error']);
    expect(net.lines.every((l) => l.message.startsWith(SAFETY_NET_MARK))).toBe(true);

    onException?.(new TypeError('x is not a function'), 'uncaughtException');
    onRejection?.(Object.assign(new Error('duplicate key'), { code: '23505' }), Promise.resolve());
    expect(net.exits).toEqual([1, 1]);
    expect(net.lines.slice(2).map((l) => l.level)).toEqual(['fatal', 'fatal']);
  });
});
