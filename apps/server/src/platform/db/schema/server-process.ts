import { index, integer, pgTable, primaryKey, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../columns';

/**
 * The process registry (`platform/cluster/process-registry.ts`): a row per server process start,
 * with its heartbeat. A process whose heartbeat is stale, or whose data directory a newer process
 * holds, is dead: a survivor takes over its MQTT session (`takeover_*`) and gives back its jobs.
 */
export const serverProcess = pgTable(
  'mes_server_process',
  {
    instanceId: varchar('instance_id', { length: 64 }).primaryKey(),
    host: varchar('host', { length: 128 }).notNull(),
    pid: integer('pid').notNull(),
    /** host + real path of DATA_DIR: a newer row with the same one replaces this process. */
    dataDir: varchar('data_dir', { length: 512 }),
    /** The external MQTT subscriber's client id (its persistent session); null with the embedded broker. */
    mqttClientId: varchar('mqtt_client_id', { length: 128 }),
    startedAt: timestampColumn('started_at').notNull().defaultNow(),
    heartbeatAt: timestampColumn('heartbeat_at').notNull().defaultNow(),
    /** Set by a clean stop, a replacement or a survivor that found the heartbeat stale. */
    stoppedAt: timestampColumn('stopped_at'),
    stopReason: varchar('stop_reason', { length: 16 }),
    /** The survivor that took over the MQTT session, and when it finished draining it. */
    takeoverBy: varchar('takeover_by', { length: 64 }),
    takeoverAt: timestampColumn('takeover_at'),
    takeoverDoneAt: timestampColumn('takeover_done_at'),
  },
  (t) => [index('mes_server_process_client').on(t.mqttClientId)],
);

/** Which process is running which job (a row while the handler runs), so a dead process's jobs are given back. */
export const serverJobRun = pgTable(
  'mes_server_job_run',
  {
    jobId: uuid('job_id').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    instanceId: varchar('instance_id', { length: 64 }).notNull(),
    startedAt: timestampColumn('started_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId] }), index('mes_server_job_run_instance').on(t.instanceId)],
);

/**
 * Fair-share slots held across the cluster (`platform/http/fair-shares.ts`): a live stream or an
 * export under way, by kind and owner (a user or a tenant), with the process holding it. The holder
 * extends `expires_at` while the slot is in use; a killed process's slots lapse on their own.
 */
export const fairShareSlot = pgTable(
  'mes_fair_share_slot',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    kind: varchar('kind', { length: 16 }).notNull(),
    owner: varchar('owner', { length: 64 }).notNull(),
    instanceId: varchar('instance_id', { length: 64 }).notNull(),
    takenAt: timestampColumn('taken_at').notNull().defaultNow(),
    expiresAt: timestampColumn('expires_at').notNull(),
  },
  (t) => [index('mes_fair_share_slot_owner').on(t.kind, t.owner)],
);
