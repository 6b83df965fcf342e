import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres';
import { freePort } from './support/free-ports';

describe('the embedded PostgreSQL', { timeout: 90_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-pg-port-'));
  fs.chmodSync(dataDir, 0o755);
  const squatter = net.createServer();
  afterAll(async () => {
    await new Promise((resolve) => squatter.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on another port when the one it chose was taken before it could bind it', async () => {
    // What happens when an outgoing connection takes the port between choosing and binding.
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as net.AddressInfo).port;
    const offered = [taken, await freePort()];
    const warnings: string[] = [];
    const log = { info: () => {}, debug: () => {}, warn: (msg: string) => void warnings.push(msg) };

    const db = await startEmbeddedPostgres(dataDir, log, async () => offered.shift() as number);
    try {
      expect(offered).toEqual([]);
      expect(new URL(db.adminUrl).port).not.toBe(String(taken));
      expect(warnings.join('\n')).toContain(`could not bind 127.0.0.1:${taken}`);
      const client = new pg.Client({ connectionString: db.adminUrl });
      await client.connect();
      const { rows } = await client.query<{ one: number }>('SELECT 1 AS one');
      await client.end();
      expect(rows[0]?.one).toBe(1);
    } finally {
      await db.stop();
    }
  });
});
