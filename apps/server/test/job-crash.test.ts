import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportFileStatus, SmsCategory } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { DEPT_IDS } from '../src/seed/seed-data';
import { seedDatabase } from '../src/seed-database';
import { useMigratedDatabase, waitFor } from './support/mqtt-kit';

/**
 * A job interrupted by a crash finishes or fails visibly (docs/jobs.md "A crash during a job"):
 * real server processes (support/job-process.ts: the app context with its job queue and process
 * registry) generate a report; the test holds generation at a known point by locking the table
 * the report reads (`mes_warning`), kills the process with SIGKILL while the file is `running`,
 * and restarts it on the same DATA_DIR. Short settings: heartbeat 300 ms, dead after 2 s.
 */

const db = useMigratedDatabase();
const serverDir = path.join(import.meta.dirname, '..');
const children: ChildProcess[] = [];

beforeAll(async () => {
  await seedDatabase(db.database.db, 'Secret-1234');
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

interface Started {
  child: ChildProcess;
  file?: string;
}

/** A job process; resolves once its queue runs (and its file is queued, with `enqueue`). */
function jobProcess(dataDir: string, enqueue: boolean | 'escalation' = false): Promise<Started> {
  const queued = enqueue === 'escalation' ? 'escalation' : 'xlsx';
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/job-process.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, ...(enqueue ? { ENQUEUE: queued } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const started: Started = { child };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`job process exited (${code})`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const said = JSON.parse(line) as { file?: string; ready?: boolean };
      if (said.file) started.file = said.file;
      if (said.ready) resolve(started);
    });
  });
}

const kill = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
};

interface FileRow {
  state: number;
  progress: number;
  error: string;
  object_key: string | null;
  size: number | null;
}

const fileRow = async (id: string) =>
  (
    await db.database.pool.query<FileRow>(
      'select state, progress, error, object_key, size from mes_report_file where id = $1',
      [id],
    )
  ).rows[0];

const jobOf = async (id: string) =>
  (
    await db.database.pool.query<{ state: string; retry_count: number }>(
      `select state, retry_count from pgboss.job where name = 'report.generate' and data->>'fileId' = $1`,
      [id],
    )
  ).rows;

/** Files stored under a data directory (the local object storage). */
const storedObjects = (dataDir: string): string[] => {
  const root = path.join(dataDir, 'upload');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};

/** Holds report generation at its data read: an exclusive lock on the table the report reads. */
const holdReports = () => holdTable('mes_warning');

/** Holds whatever reads `table` first: an exclusive lock on it until `release`. */
async function holdTable(table: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('begin');
  await client.query(`lock table ${table} in access exclusive mode`);
  return {
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}

const running = (id: string, retryCount: number) => async () => {
  const [job] = await jobOf(id);
  return (
    (await fileRow(id))?.state === ReportFileStatus.running && job?.state === 'active' && job.retry_count === retryCount
  );
};

describe('a report job whose server process is killed (-9) mid-generation', () => {
  it('is run again after the restart and completes once: one file, one stored object', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-job-crash-'));
    const hold = await holdReports();
    const first = await jobProcess(dataDir, true);
    const id = first.file!;
    await waitFor(running(id, 0), 30_000);
    await kill(first.child);
    await hold.release();
    const restartedAt = Date.now();
    const second = await jobProcess(dataDir);
    try {
      // The file is done inside the handler, a moment before pg-boss marks the job completed: wait for both.
      await waitFor(
        async () => (await fileRow(id))?.state === ReportFileStatus.done && (await jobOf(id))[0]?.state === 'completed',
        60_000,
      ).catch(async (e) => {
        console.log('at the timeout: file', await fileRow(id), 'job', await jobOf(id));
        throw e;
      });
      const seconds = (Date.now() - restartedAt) / 1000;
      const file = await fileRow(id);
      const jobs = await jobOf(id);
      const objects = storedObjects(dataDir);
      console.log(
        `report killed mid-generation, restarted: done ${seconds.toFixed(1)} s after the restart; job ${JSON.stringify(jobs)}; objects ${objects.length}`,
      );
      expect(seconds).toBeLessThan(60);
      expect(file).toMatchObject({ state: ReportFileStatus.done, progress: 100, error: '' });
      expect(jobs).toEqual([{ state: 'completed', retry_count: 1 }]);
      // One object, the one the file names.
      expect(objects).toEqual([path.basename(String(file?.object_key))]);
    } finally {
      await kill(second.child);
    }
  }, 120_000);

  it('killed on its last try too: the file is failed with the reason shown, within a minute', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-job-crash-'));
    const hold = await holdReports();
    try {
      const first = await jobProcess(dataDir, true);
      const id = first.file!;
      await waitFor(running(id, 0), 30_000);
      await kill(first.child);
      // Its retry (the last, report.generate has one) is held at the same point and killed too.
      const second = await jobProcess(dataDir);
      await waitFor(running(id, 1), 30_000);
      await kill(second.child);
      const restartedAt = Date.now();
      const third = await jobProcess(dataDir);
      // The file is failed by pg-boss's failure of the job: wait for both to be written.
      await waitFor(
        async () => (await fileRow(id))?.state === ReportFileStatus.failed && (await jobOf(id))[0]?.state === 'failed',
        60_000,
      );
      const seconds = (Date.now() - restartedAt) / 1000;
      const file = await fileRow(id);
      const jobs = await jobOf(id);
      console.log(
        `report killed on both tries: failed ${seconds.toFixed(1)} s after the restart; job ${JSON.stringify(jobs)}; error ${file?.error}`,
      );
      expect(seconds).toBeLessThan(60);
      expect(file?.error).toMatch(/服务进程已停止.*server process running this job stopped/);
      expect(jobs).toEqual([{ state: 'failed', retry_count: 1 }]);
      await hold.release();
      // Nothing runs it a third time: still failed, no object.
      await new Promise((r) => setTimeout(r, 1500));
      expect((await fileRow(id))?.state).toBe(ReportFileStatus.failed);
      expect(storedObjects(dataDir)).toEqual([]);
      await kill(third.child);
    } finally {
      await hold.release().catch(() => undefined);
    }
  }, 150_000);
});

describe('an escalation SMS job whose server process is killed (-9) mid-send', () => {
  const TENANT = '000000';
  const PHONE = '13800000290';

  /** The escalation's history entry of the warning (one step, so one entry). */
  const entryOf = async (warningId: string) =>
    (
      await db.database.pool.query<{ sms_status: string; sms_detail: string }>(
        'select sms_status, sms_detail from mes_warning_history where warning_id = $1',
        [warningId],
      )
    ).rows[0];
  const smsJob = async () =>
    (
      await db.database.pool.query<{ id: string; state: string; running: boolean }>(
        `select j.id, j.state, exists (select 1 from mes_server_job_run r where r.job_id = j.id) as running
           from pgboss.job j where j.name = 'warning.escalation-sms'`,
      )
    ).rows;

  it('is failed with the reason shown within a minute of the restart, not left queued', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-job-crash-'));
    const q = (text: string, values: unknown[]) => db.database.pool.query(text, values);
    // The tenant's enabled SMS configuration (the development provider: it logs, never texts), a
    // role with one user with a phone, a step after 1 minute with SMS, and a warning 5 minutes old.
    await q(
      `insert into blade_sms (id, tenant_id, category, sms_code, template_id, status) values ($1, $2, $3, 'dev-crash', 'WARN', 1)`,
      [nextId(), TENANT, SmsCategory.development],
    );
    const roleId = nextId();
    await q(`insert into blade_role (id, tenant_id, role_name, role_alias) values ($1, $2, '值班', 'duty_crash')`, [
      roleId,
      TENANT,
    ]);
    await q(
      `insert into blade_user (id, tenant_id, account, password, name, real_name, role_id, dept_id, phone, status)
         values ($1, $2, 'dutycrash', 'x', '值班', '值班', $3, $4, $5, 1)`,
      [nextId(), TENANT, roleId, DEPT_IDS.east, PHONE],
    );
    await q(
      `insert into mes_warning_escalation (id, tenant_id, level, after_minutes, role_id, notify_sms, notify_live, status, create_time)
         values ($1, $2, 1, 1, $3, true, false, 1, now() - interval '1 hour')`,
      [nextId(), TENANT, roleId],
    );
    const warningId = nextId();
    await q(
      `insert into mes_warning (id, tenant_id, warning_no, device_code, warning_type, level, message, start_time, status)
         values ($1, $2, 'WCRASH001', 'CRASH-DEV', 'threshold', 1, '设备 CRASH-DEV 温度过高', now() - interval '5 minutes', 1)`,
      [warningId, TENANT],
    );
    // The SMS job's first read is the tenant's SMS configuration: held there.
    const hold = await holdTable('blade_sms');
    try {
      const first = await jobProcess(dataDir, 'escalation');
      await waitFor(async () => {
        const [job] = await smsJob();
        return (await entryOf(warningId))?.sms_status === 'queued' && job?.state === 'active' && job.running;
      }, 30_000);
      await kill(first.child);
      await hold.release();
      const restartedAt = Date.now();
      const second = await jobProcess(dataDir);
      await waitFor(async () => (await entryOf(warningId))?.sms_status !== 'queued', 60_000);
      const seconds = (Date.now() - restartedAt) / 1000;
      const entry = await entryOf(warningId);
      const jobs = await smsJob();
      console.log(
        `escalation SMS killed mid-send: ${entry?.sms_status} ${seconds.toFixed(1)} s after the restart; job ${jobs[0]?.state}`,
      );
      expect(seconds).toBeLessThan(60);
      expect(entry?.sms_status).toBe('failed');
      expect(entry?.sms_detail).toMatch(/短信任务中断.*The SMS job was interrupted/);
      expect(jobs.map((j) => j.state)).toEqual(['failed']);
      await kill(second.child);
    } finally {
      await hold.release().catch(() => undefined);
    }
  }, 150_000);
});
