import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessRegistry } from '../src/platform/cluster/process-registry';
import { useMigratedDatabase } from './support/mqtt-kit';

/**
 * The process registry on a real PostgreSQL (platform/cluster/process-registry.ts): who is dead,
 * and that exactly one survivor claims a dead process's MQTT session, while a process returning on
 * that client id waits for the claimant to finish.
 */

const db = useMigratedDatabase();
const made: ProcessRegistry[] = [];

const registry = (settings: { heartbeatMs?: number; deadAfterMs?: number } = {}, dataDir?: string) => {
  const r = new ProcessRegistry({
    pool: db.database.pool,
    ...(dataDir ? { dataDir } : {}),
    settings: { heartbeatMs: 200, deadAfterMs: 1000, ...settings },
    warn: () => undefined,
  });
  made.push(r);
  return r;
};

afterAll(async () => {
  for (const r of made) await r.stop();
});

const stateOf = async (id: string) =>
  (
    await db.database.pool.query<{ stop_reason: string | null; takeover_by: string | null; done: boolean }>(
      `select stop_reason, takeover_by, takeover_done_at is not null as done from mes_server_process where instance_id = $1`,
      [id],
    )
  ).rows[0];

describe('the process registry', () => {
  it('takes a process for dead when its heartbeat is stale, when a restart holds its DATA_DIR, and when it stops', async () => {
    const silent = registry({ heartbeatMs: 60_000 });
    const beating = registry();
    const watcher = registry();
    await Promise.all([silent.start(), beating.start(), watcher.start()]);
    await new Promise((r) => setTimeout(r, 1300));
    expect(await watcher.deadAmong([silent.instanceId, beating.instanceId, 'unknown'])).toEqual(
      new Set([silent.instanceId, 'unknown']),
    );

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-registry-'));
    const crashed = registry({}, dir);
    await crashed.start();
    const restarted = registry({}, dir);
    await restarted.start();
    expect((await stateOf(crashed.instanceId))?.stop_reason).toBe('replaced');
    expect(await watcher.deadAmong([crashed.instanceId, restarted.instanceId])).toEqual(new Set([crashed.instanceId]));

    await beating.stop();
    expect((await stateOf(beating.instanceId))?.stop_reason).toBe('stopped');
  });

  it('lets exactly one survivor claim a dead session; the process coming back waits until it is drained', async () => {
    const dead = registry();
    await dead.holdSession('reg-client-1');
    await dead.stop();
    const survivors = [registry(), registry(), registry()];
    const claims = await Promise.all(survivors.map((s) => s.claimOrphanedSession()));
    const won = claims.filter((c) => c !== undefined);
    expect(won).toEqual([{ instanceId: dead.instanceId, clientId: 'reg-client-1' }]);
    const claimant = survivors[claims.findIndex((c) => c !== undefined)]!;

    // The dead process's directory starts again: it waits while the claimant drains.
    const back = registry();
    let holding = true;
    const held = back.holdSession('reg-client-1').then(() => (holding = false));
    await new Promise((r) => setTimeout(r, 800));
    expect(holding).toBe(true);
    await claimant.sessionTakenOver(dead.instanceId);
    await held;
    expect(await stateOf(dead.instanceId)).toMatchObject({ takeover_by: claimant.instanceId, done: true });
    // Nothing left to claim.
    expect(await survivors[0]!.claimOrphanedSession()).toBeUndefined();
  });

  it('claims nothing while a live process holds the client id, and marks the old row done', async () => {
    const dead = registry();
    await dead.holdSession('reg-client-2');
    await dead.stop();
    const back = registry();
    await back.holdSession('reg-client-2');
    expect(await registry().claimOrphanedSession()).toBeUndefined();
    expect((await stateOf(dead.instanceId))?.done).toBe(true);
  });
});
