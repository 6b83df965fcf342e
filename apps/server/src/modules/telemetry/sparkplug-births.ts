import type pg from 'pg';
import { nextId } from '../../platform/db/ids';
import { rawTenantRows } from '../../platform/tenancy/raw-tenant-rows';
import type { BirthMetric, StoredBirth } from '../../platform/mqtt/sparkplug';

export type { BirthMetric, StoredBirth };

/**
 * Sparkplug births kept in PostgreSQL (`mes_sparkplug_birth`, docs/mqtt.md "Sparkplug B"): every
 * process reads the births of a batch's edge nodes before the batch, and writes the batch's
 * births and deaths in the batch's transaction. So data read by one process is resolved against
 * a birth another process received, and a restarted process knows the current bdSeq and which
 * devices an NDEATH ends. Rows are matched by `(tenant_id, edge_node, device_id)`, the table's
 * unique key, across the tenants of a batch.
 */

/** A change to the stored births, applied in the order the batch received them. */
export type BirthChange =
  | { kind: 'birth'; birth: StoredBirth }
  | { kind: 'node-death'; tenantId: string; edgeNode: string; at: Date }
  | { kind: 'device-death'; tenantId: string; edgeNode: string; deviceId: string; at: Date };

type Query = Pick<pg.PoolClient, 'query'>;

interface BirthRow {
  tenant_id: string;
  edge_node: string;
  device_id: string;
  bd_seq: number | null;
  metrics: unknown;
  born_at: Date;
}

const metricsOf = (value: unknown): BirthMetric[] =>
  Array.isArray(value)
    ? value.flatMap((m: unknown) => {
        if (typeof m !== 'object' || m === null) return [];
        const { name, alias, type } = m as Record<string, unknown>;
        if (typeof name !== 'string') return [];
        return [
          {
            name,
            ...(typeof alias === 'number' ? { alias } : {}),
            ...(typeof type === 'string' ? { type } : {}),
          },
        ];
      })
    : [];

/** The stored births (node and devices) of these edge nodes. */
export async function loadBirths(
  client: Query,
  nodes: readonly { tenantId: string; edgeNode: string }[],
): Promise<StoredBirth[]> {
  if (!nodes.length) return [];
  const { rows } = await client.query<BirthRow>(
    `select b.tenant_id, b.edge_node, b.device_id, b.bd_seq, b.metrics, b.born_at
       from mes_sparkplug_birth b
       join unnest($1::varchar[], $2::varchar[]) as v(tenant_id, edge_node)
         on b.tenant_id = v.tenant_id and b.edge_node = v.edge_node
      where b.is_deleted = 0`,
    [nodes.map((n) => n.tenantId), nodes.map((n) => n.edgeNode)],
  );
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    edgeNode: r.edge_node,
    deviceId: r.device_id,
    bdSeq: r.bd_seq,
    metrics: metricsOf(r.metrics),
    bornAt: r.born_at,
  }));
}

/**
 * Writes a batch's births and deaths inside its transaction. A birth replaces an older one only
 * (a slower process cannot put back a superseded birth); a node's birth drops its devices' births
 * (they are born again after it); a death removes only births older than itself.
 */
export async function applyBirthChanges(client: Query, changes: readonly BirthChange[]): Promise<void> {
  for (const change of changes) {
    if (change.kind === 'birth') {
      const b = change.birth;
      if (b.deviceId === '')
        await client.query(
          `delete from mes_sparkplug_birth where ${rawTenantRows(1)} and edge_node = $2 and device_id <> '' and born_at <= $3`,
          [b.tenantId, b.edgeNode, b.bornAt],
        );
      await client.query(
        `insert into mes_sparkplug_birth (id, tenant_id, edge_node, device_id, bd_seq, metrics, born_at)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7)
         on conflict (tenant_id, edge_node, device_id) where is_deleted = 0 do update
           set bd_seq = excluded.bd_seq, metrics = excluded.metrics, born_at = excluded.born_at, update_time = now()
           where mes_sparkplug_birth.born_at <= excluded.born_at`,
        [nextId(), b.tenantId, b.edgeNode, b.deviceId, b.bdSeq, JSON.stringify(b.metrics), b.bornAt],
      );
    } else if (change.kind === 'node-death') {
      await client.query(
        `delete from mes_sparkplug_birth where ${rawTenantRows(1)} and edge_node = $2 and born_at <= $3`,
        [change.tenantId, change.edgeNode, change.at],
      );
    } else {
      await client.query(
        `delete from mes_sparkplug_birth where ${rawTenantRows(1)} and edge_node = $2 and device_id = $3 and born_at <= $4`,
        [change.tenantId, change.edgeNode, change.deviceId, change.at],
      );
    }
  }
}
