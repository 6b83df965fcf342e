import { eq, sql } from 'drizzle-orm';
import { idValue } from '../../platform/http/request-params';
import type { FastifyInstance } from 'fastify';
import {
  bilingual,
  DEVICE_ROTATE_SECRET_PATH,
  deviceResource,
  DeviceStatus,
  type DeviceSecretReply,
  operationLogResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs, type RemoveArgs } from '../../engine/resource-routes';
import { CHANGE_CHANNEL } from '../../platform/cache/change-feed';
import { mqttRevocationTopic } from '../../platform/mqtt/revocation';
import { requireAuth } from '../../platform/auth/request-auth';
import { recordOperation } from '../../platform/audit/operation-audit';
import { device } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { hashSecret, newClientId, newSecret } from '../../platform/crypto/device-credentials';
import { DeviceMessages } from './messages';
import { cyclesNow } from './device-cycle-now';
import { txQueryable } from '../../platform/jobs/transaction-executor';
import { publishChanges } from '../telemetry/publish-changes';
import { refreshRunState } from '../telemetry/run-state';

/**
 * A new device gets its MQTT client id here and no usable secret yet (an empty hash matches
 * nothing): the secret exists only in the reply of `rotate-secret`, which the screen calls right
 * after the add, so the submit keeps the engine's reply (`data` = id).
 */
function beforeChange({ adding, values }: ChangeArgs): void {
  if (!adding) return;
  values.mqttClientId = newClientId();
  values.mqttSecretHash = '';
}

type Tx = ChangeArgs['tx'];

/**
 * Cuts these devices' MQTT connections off the embedded broker of every process, when the
 * transaction commits (platform/mqtt/revocation.ts): a rotated secret may have leaked, and a
 * removed or disabled device must stop reporting now, not at its next connection.
 */
async function revokeMqtt(tx: Tx, clientIds: readonly unknown[]): Promise<void> {
  for (const clientId of clientIds)
    if (typeof clientId === 'string' && clientId)
      await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${mqttRevocationTopic(clientId)})`);
}

/**
 * Disabling a device (status 0) cuts its connection; enabling it lets it sign in again. Its run
 * state is derived again: maintenance set or cleared by hand takes effect with the save, and a
 * cleared one gives way to what the device's data says.
 */
async function afterChange({ adding, values, existing, tx, auth }: ChangeArgs & { id: string }): Promise<void> {
  const deviceCode = String(values.deviceCode ?? existing?.deviceCode ?? '');
  const client = txQueryable(tx);
  await publishChanges(
    client,
    await refreshRunState(
      client,
      [{ tenantId: String(existing?.tenantId ?? values.tenantId ?? auth.tenantId), deviceCode }],
      new Date(),
    ),
  );
  if (adding || !existing) return;
  if (values.status === DeviceStatus.disabled && Number(existing.status) !== DeviceStatus.disabled)
    await revokeMqtt(tx, [existing.mqttClientId]);
}

async function afterRemove({ rows, tx }: RemoveArgs): Promise<void> {
  await revokeMqtt(
    tx,
    rows.map((row) => row.mqttClientId),
  );
}

/** Devices (`/api/basic/device`: list, detail, submit, remove, export) and their MQTT secret. */
export function registerDeviceRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Each row carries its current cycle (program, phase, remaining time) from its latest values.
  const decorate = async (rows: Record<string, unknown>[]) => {
    const cycles = await cyclesNow(
      ctx,
      rows.map((r) => String(r.id)),
    );
    return rows.map((r) => ({ ...r, cycle: cycles.get(String(r.id)) ?? null }));
  };
  registerResource(app, ctx, {
    def: deviceResource,
    table: device,
    hooks: { beforeChange, afterChange, afterRemove, decorate, decorateReads: ['id'] },
  });

  // A new secret for a device, answered once; the old one stops working at once.
  app.post(
    `/api${DEVICE_ROTATE_SECRET_PATH}`,
    { config: { apiScope: `${deviceResource.code}:secret` } },
    async (request) => {
      const auth = requireAuth(request);
      const query = request.query as Record<string, unknown>;
      const body = (request.body ?? {}) as Record<string, unknown>;
      // The shared id rules: a 64-bit id in range, or a 400 (never a query that overflows).
      const id = idValue(query.id ?? body.id, 'id');
      // `first=1`: only a device that never had a secret (the screen's call right after an add),
      // so a stale call cannot invalidate a secret already in use.
      const first = String(query.first ?? body.first ?? '') === '1';
      const secret = newSecret();
      const reply = await ctx.db.transaction(async (tx) => {
        const [row] = await tenantScope(tx, auth.tenantId)
          .update(device)
          .set({ mqttSecretHash: hashSecret(secret), updateUser: auth.userId, updateTime: new Date() })
          .where(eq(device.id, id), first ? eq(device.mqttSecretHash, '') : undefined)
          .returning({ deviceCode: device.deviceCode, clientId: device.mqttClientId });
        if (!row && first) {
          const [known] = await tenantScope(tx, auth.tenantId)
            .select(device, { id: device.id })
            .where(eq(device.id, id));
          if (known) throw badRequest(DeviceMessages.secretIssued);
        }
        if (!row) throw notFound(bilingual('rowNotFound'));
        // The old secret's live connections end on every process when this commits.
        await revokeMqtt(tx, [row.clientId]);
        await recordOperation(tx, {
          def: deviceResource,
          auth,
          operation: 'update',
          ids: [id],
          changes: [
            {
              field: 'mqttSecretHash',
              label: deviceResource.fields.mqttSecretHash.label.zh,
              before: '******',
              after: '******',
            },
          ],
          at: new Date(),
        });
        return row;
      });
      await ctx.totals.changed(operationLogResource.code, '*');
      const data: DeviceSecretReply = {
        deviceCode: reply.deviceCode,
        tenantId: auth.tenantId,
        clientId: reply.clientId,
        secret,
        topicPrefix: `mes/${auth.tenantId}/${reply.deviceCode}`,
      };
      return ok(data);
    },
  );
}
