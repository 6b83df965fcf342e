import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/platform/db/database';
import { postgresRevocationList, type RevocationList } from '../src/platform/auth/revocation-list';
import { systemClock } from '../src/platform/store/ephemeral-store';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  url = t.databaseUrl;
});
afterAll(() => t.close());

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('revocation list on PostgreSQL', () => {
  it('a session revoked by one process is refused by another at once', async () => {
    const otherDb = connectDatabase(url, 2);
    const other: RevocationList = await postgresRevocationList(otherDb, url, systemClock);
    try {
      const s = await t.signIn();
      const claims = await t.ctx.tokens.verify(s.access_token, 'access_token');
      expect(await other.isRevoked(claims!.sid)).toBe(false);
      await t.ctx.tokens.revoke(claims!);
      expect(await eventually(() => other.isRevoked(claims!.sid))).toBe(true);
    } finally {
      await other.close();
      await otherDb.close();
    }
  });

  it('a process that starts later loads the sessions revoked before', async () => {
    const s = await t.signIn();
    const claims = (await t.ctx.tokens.verify(s.access_token, 'access_token'))!;
    await t.ctx.tokens.revoke(claims);
    const db = connectDatabase(url, 2);
    const late = await postgresRevocationList(db, url, systemClock);
    try {
      expect(await late.isRevoked(claims.sid)).toBe(true);
      expect(await late.isRevoked('never-revoked')).toBe(false);
    } finally {
      await late.close();
      await db.close();
    }
  });

  it('stays correct while its listening connection is lost, and reconnects', async () => {
    const db = connectDatabase(url, 2);
    const list = await postgresRevocationList(db, url, systemClock);
    try {
      // Drop every LISTEN connection to this database, as a network failure would.
      await t.database.pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()`,
      );
      const s = await t.signIn();
      const claims = (await t.ctx.tokens.verify(s.access_token, 'access_token'))!;
      await t.ctx.tokens.revoke(claims);
      expect(await eventually(() => list.isRevoked(claims.sid))).toBe(true);
    } finally {
      await list.close();
      await db.close();
    }
  });
});
