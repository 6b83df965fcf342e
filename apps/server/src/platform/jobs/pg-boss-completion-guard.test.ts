import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { guardPgBossCompletion } from './pg-boss-completion-guard';

type Manager = {
  fail(name: string, id: string, data: unknown): Promise<unknown>;
  complete(name: string, id: string): Promise<unknown>;
};
const load = createRequire(import.meta.url);
const ManagerClass = load('pg-boss/src/manager') as { prototype: object };

/** pg-boss's own manager, whose database is unreachable (what the work loop meets in an outage). */
function managerWithoutDatabase(): Manager {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5'), { code: 'ECONNREFUSED' });
  return Object.assign(Object.create(ManagerClass.prototype) as Manager, {
    db: { executeSql: () => Promise.reject(refused) },
  });
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('pg-boss completion guard', () => {
  it('a job recorded as failed or completed while the database is away is said, not an unhandled rejection', async () => {
    process.on('unhandledRejection', onUnhandled);
    const warnings: string[] = [];
    guardPgBossCompletion((message) => warnings.push(message));
    const manager = managerWithoutDatabase();
    // As pg-boss's work loop does: neither call is awaited.
    void manager.fail('report.export', '6b0d5f0e-9f0e-4d55-9d55-0d4f3f0c6a11', new Error('handler failed'));
    void manager.complete('report.export', '6b0d5f0e-9f0e-4d55-9d55-0d4f3f0c6a12');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    expect(warnings).toEqual([
      'job queue: could not record a job as failed; it runs again after it expires',
      'job queue: could not record a job as completed; it runs again after it expires',
    ]);
  });

  it('whoever awaits the call still sees the failure', async () => {
    guardPgBossCompletion(() => undefined);
    guardPgBossCompletion(() => undefined); // twice (two queues in a process) wraps once
    await expect(
      managerWithoutDatabase().fail('report.export', '6b0d5f0e-9f0e-4d55-9d55-0d4f3f0c6a13', {}),
    ).rejects.toThrow('ECONNREFUSED');
  });
});
