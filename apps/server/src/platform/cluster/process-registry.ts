import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type pg from 'pg';

/**
 * The process registry (docs/mqtt.md "A process that stays down", docs/jobs.md "Crashes"): each
 * server process keeps a row in `mes_server_process` with its heartbeat. Times are PostgreSQL's
 * (`now()`), so the processes' clocks never have to agree.
 *
 * A process is dead when its heartbeat is older than `deadAfterMs`, when a newer process holds its
 * data directory (a restart after a crash), or when it stopped cleanly. What a dead process leaves
 * behind (its MQTT session, its running jobs) is claimed by exactly one survivor through
 * conditional UPDATEs and DELETEs on these rows.
 */
export interface RegistrySettings {
  /** How often the row's heartbeat is written (default 5 s). */
  heartbeatMs: number;
  /** A heartbeat older than this marks the process dead (default 30 s). */
  deadAfterMs: number;
}

export const DEFAULT_REGISTRY_SETTINGS: RegistrySettings = { heartbeatMs: 5000, deadAfterMs: 30_000 };

export interface RegistryOptions {
  pool: pg.Pool;
  /** DATA_DIR: a newer process on the same directory (same host) replaces this one. */
  dataDir?: string;
  settings?: Partial<RegistrySettings>;
  warn(message: string, error?: unknown): void;
}

/** A dead process's MQTT session, claimed by this process for a takeover. */
export interface OrphanedSession {
  instanceId: string;
  clientId: string;
}

/** Serialises, per MQTT client id, a takeover claim with the registration of a process using that id. */
const clientLock = (client: pg.PoolClient, clientId: string) =>
  client.query(`select pg_advisory_xact_lock(727003, hashtext($1))`, [clientId]);

const realDir = (dir: string) => {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
};

export class ProcessRegistry {
  readonly instanceId = `${process.pid}-${randomBytes(6).toString('hex')}`;
  readonly settings: RegistrySettings;
  private timer: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: RegistryOptions) {
    this.settings = { ...DEFAULT_REGISTRY_SETTINGS, ...options.settings };
  }

  private get pool() {
    return this.options.pool;
  }

  /** The stale-heartbeat condition, in SQL on alias `p` (seconds as a parameter). */
  private get deadAfterSeconds() {
    return this.settings.deadAfterMs / 1000;
  }

  /** Writes this process's row (retried until it succeeds), marks a process it replaces, starts the heartbeat. */
  start(): Promise<void> {
    this.started ??= (async () => {
      const dataDir = this.options.dataDir ? `${os.hostname()}:${realDir(this.options.dataDir)}`.slice(0, 512) : null;
      for (;;) {
        try {
          await this.pool.query(
            `insert into mes_server_process (instance_id, host, pid, data_dir) values ($1, $2, $3, $4)`,
            [this.instanceId, os.hostname().slice(0, 128), process.pid, dataDir],
          );
          // A row per start: those long finished go (a session is expired by then, a job given back).
          await this.pool.query(`delete from mes_server_process where stopped_at < now() - interval '7 days'`);
          // The directory allows one process at a time (server.pid): an older row on it is a crash.
          if (dataDir)
            await this.pool.query(
              `update mes_server_process set stopped_at = now(), stop_reason = 'replaced'
                where data_dir = $1 and instance_id <> $2 and stopped_at is null`,
              [dataDir, this.instanceId],
            );
          break;
        } catch (error) {
          if (this.stopped) return;
          this.options.warn('process registry: cannot write this process; retrying in 2 s', error);
          await new Promise((r) => setTimeout(r, 2000).unref());
        }
      }
      this.timer = setInterval(() => void this.beat(), this.settings.heartbeatMs);
      this.timer.unref();
    })();
    return this.started;
  }

  private async beat(): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ stopped: boolean }>(
        `update mes_server_process set heartbeat_at = now() where instance_id = $1 returning stopped_at is not null as stopped`,
        [this.instanceId],
      );
      // Declared dead while alive (the database was out of reach longer than dead-after): what
      // it ran has been given back; it counts as alive again from now on.
      if (rows[0]?.stopped) {
        this.options.warn('process registry: this process was taken for dead (no heartbeat); registering again');
        await this.pool.query(
          `update mes_server_process set stopped_at = null, stop_reason = null, takeover_by = null,
                  takeover_at = null, takeover_done_at = null where instance_id = $1`,
          [this.instanceId],
        );
      }
    } catch (error) {
      this.options.warn('process registry: heartbeat failed', error);
    }
  }

  /**
   * Records this process's MQTT client id, then waits while a survivor is still draining the
   * session of that id (left by this directory's previous, crashed process): resuming it now
   * would take the connection from the survivor mid-batch (docs/mqtt.md).
   */
  async holdSession(clientId: string): Promise<void> {
    await this.start();
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await clientLock(client, clientId);
      await client.query(`update mes_server_process set mqtt_client_id = $2 where instance_id = $1`, [
        this.instanceId,
        clientId,
      ]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    for (;;) {
      const { rows } = await this.pool.query(
        `select 1 from mes_server_process d join mes_server_process s on s.instance_id = d.takeover_by
          where d.mqtt_client_id = $1 and d.instance_id <> $2 and d.takeover_done_at is null
            and s.stopped_at is null and s.heartbeat_at > now() - make_interval(secs => $3)`,
        [clientId, this.instanceId, this.deadAfterSeconds],
      );
      if (!rows.length || this.stopped) return;
      await new Promise((r) => setTimeout(r, 500).unref());
    }
  }

  /**
   * Claims one dead process's MQTT session for a takeover, or answers undefined. The claim holds
   * only while no live process uses that client id and no live survivor holds an earlier claim;
   * a dead one's stale heartbeat is recorded as it is found.
   */
  async claimOrphanedSession(): Promise<OrphanedSession | undefined> {
    await this.start();
    await this.pool.query(
      `update mes_server_process set stopped_at = now(), stop_reason = 'stale'
        where stopped_at is null and heartbeat_at < now() - make_interval(secs => $1)`,
      [this.deadAfterSeconds],
    );
    const { rows: candidates } = await this.pool.query<{ instance_id: string; mqtt_client_id: string }>(
      `select instance_id, mqtt_client_id from mes_server_process
        where stopped_at is not null and mqtt_client_id is not null and takeover_done_at is null
        order by stopped_at limit 10`,
    );
    for (const candidate of candidates) {
      const client = await this.pool.connect();
      try {
        await client.query('begin');
        await clientLock(client, candidate.mqtt_client_id);
        const { rowCount } = await client.query(
          `update mes_server_process d set takeover_by = $2, takeover_at = now()
            where d.instance_id = $1 and d.takeover_done_at is null
              and (d.takeover_by is null or not exists (
                select 1 from mes_server_process s where s.instance_id = d.takeover_by
                   and s.stopped_at is null and s.heartbeat_at > now() - make_interval(secs => $3)))
              and not exists (
                select 1 from mes_server_process p where p.mqtt_client_id = d.mqtt_client_id
                   and p.instance_id <> d.instance_id and p.stopped_at is null
                   and p.heartbeat_at > now() - make_interval(secs => $3))`,
          [candidate.instance_id, this.instanceId, this.deadAfterSeconds],
        );
        // A newer process on the same client id resumes the session itself: nothing to take over.
        if (!rowCount)
          await client.query(
            `update mes_server_process d set takeover_done_at = now()
              where d.instance_id = $1 and d.takeover_by is null and exists (
                select 1 from mes_server_process p where p.mqtt_client_id = d.mqtt_client_id
                   and p.instance_id <> d.instance_id and p.started_at > d.started_at)`,
            [candidate.instance_id],
          );
        await client.query('commit');
        if (rowCount) return { instanceId: candidate.instance_id, clientId: candidate.mqtt_client_id };
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    }
    return undefined;
  }

  /** The session was drained and ended: no survivor takes it again. */
  async sessionTakenOver(instanceId: string): Promise<void> {
    await this.pool.query(
      `update mes_server_process set takeover_done_at = now() where instance_id = $1 and takeover_by = $2`,
      [instanceId, this.instanceId],
    );
  }

  /** The takeover did not finish (broker away, interrupted): another survivor, or this one, tries again. */
  async releaseSession(instanceId: string): Promise<void> {
    await this.pool.query(
      `update mes_server_process set takeover_by = null, takeover_at = null where instance_id = $1 and takeover_by = $2`,
      [instanceId, this.instanceId],
    );
  }

  /** Instances among `ids` that are dead (stopped, replaced or silent past dead-after) or unknown. */
  async deadAmong(ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const { rows } = await this.pool.query<{ instance_id: string }>(
      `select instance_id from mes_server_process
        where instance_id = any($1::text[]) and stopped_at is null
          and heartbeat_at > now() - make_interval(secs => $2)`,
      [ids, this.deadAfterSeconds],
    );
    const alive = new Set(rows.map((r) => r.instance_id));
    return new Set(ids.filter((id) => !alive.has(id)));
  }

  /** A clean stop: the row says so at once (survivors need not wait for dead-after). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (!this.started) return;
    await this.started;
    await this.pool
      .query(`update mes_server_process set stopped_at = now(), stop_reason = 'stopped' where instance_id = $1`, [
        this.instanceId,
      ])
      .catch((error: unknown) => this.options.warn('process registry: cannot record the stop', error));
  }
}
