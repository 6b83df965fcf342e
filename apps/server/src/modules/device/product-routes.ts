import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { productResource, RUN_STATE_FIELD_KEYS } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs } from '../../engine/resource-routes';
import { plcVariable, product, productAlarmRule, productField } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { DeviceMessages } from './messages';
import { txQueryable } from '../../platform/jobs/transaction-executor';
import { publishChanges } from '../telemetry/publish-changes';
import { refreshRunState } from '../telemetry/run-state';

const rowsOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? (value as Record<string, unknown>[]) : [];

/** The checks of a product's child rows against each other (the engine has checked each row). */
async function beforeChange(args: ChangeArgs): Promise<void> {
  await keepMappedFields(args);
  await checkAlarmFields(args);
  await checkRunStateFields(args);
}

/** The fields a product names for its devices' run state are fields of its own model. */
async function checkRunStateFields({ tx, auth, adding, existing, body, values }: ChangeArgs): Promise<void> {
  const named = RUN_STATE_FIELD_KEYS.flatMap((name) => {
    const key = values[name] ?? (adding ? undefined : existing?.[name]);
    return typeof key === 'string' && key ? [{ name, key }] : [];
  });
  if (!named.length) return;
  const keys = new Set(
    Array.isArray(body.fields) || adding
      ? rowsOf(body.fields).map((f) => String(f.fieldKey))
      : (
          await tenantScope(tx, auth.tenantId)
            .select(productField, { fieldKey: productField.fieldKey })
            .where(eq(productField.productId, String(existing?.id)))
        ).map((f) => f.fieldKey),
  );
  const missing = named.find((n) => !keys.has(n.key));
  if (missing)
    throw badRequest(DeviceMessages.runStateFieldNotInModel(productResource.fields[missing.name].label, missing.key));
}

/** A product's new rules apply to its devices at once, not at their next message. */
async function afterChange({ tx, adding, id }: ChangeArgs & { id: string }): Promise<void> {
  if (adding) return;
  const client = txQueryable(tx);
  const { rows } = await client.query<{ tenant_id: string; device_code: string }>(
    'select tenant_id, device_code from mes_device where product_id = $1::bigint and is_deleted = 0',
    [id],
  );
  await publishChanges(
    client,
    await refreshRunState(
      client,
      rows.map((r) => ({ tenantId: r.tenant_id, deviceCode: r.device_code })),
      new Date(),
    ),
  );
}

/** A model field a PLC variable of the product maps stays while the variable exists. */
async function keepMappedFields({ tx, auth, adding, existing, body }: ChangeArgs): Promise<void> {
  if (adding || !Array.isArray(body.fields)) return;
  const kept = new Set(rowsOf(body.fields).map((f) => String(f.fieldKey)));
  const mapped = await tenantScope(tx, auth.tenantId)
    .select(plcVariable, { name: plcVariable.name })
    .where(eq(plcVariable.productId, String(existing?.id)));
  const lost = mapped.find((v) => !kept.has(v.name));
  if (lost) throw badRequest(DeviceMessages.fieldMapped(lost.name));
}

/**
 * An alarm rule watches a field of the product's own model: the rules as sent (or as stored, when
 * only the model is sent) against the model as sent (or as stored, when only the rules are sent).
 */
const FIELD_RULE_TYPES = new Set(['threshold', 'rate', 'concentration', 'refill']);

async function checkAlarmFields({ tx, auth, adding, existing, body }: ChangeArgs): Promise<void> {
  const rulesSent = Array.isArray(body.alarmRules);
  const fieldsSent = Array.isArray(body.fields);
  if (!rulesSent && (adding || !fieldsSent)) return;
  const scope = tenantScope(tx, auth.tenantId);
  const productId = String(existing?.id);
  const keys = new Set(
    fieldsSent || adding
      ? rowsOf(body.fields).map((f) => String(f.fieldKey))
      : (
          await scope
            .select(productField, { fieldKey: productField.fieldKey })
            .where(eq(productField.productId, productId))
        ).map((f) => f.fieldKey),
  );
  const rules = rulesSent
    ? rowsOf(body.alarmRules)
    : await scope
        .select(productAlarmRule, { ruleType: productAlarmRule.ruleType, fieldKey: productAlarmRule.fieldKey })
        .where(eq(productAlarmRule.productId, productId))
        .orderBy(productAlarmRule.sort, productAlarmRule.id);
  rules.forEach((rule, index) => {
    // An offline or cycle rule watches the connection or the cycles, not a field (its key is empty).
    if (!FIELD_RULE_TYPES.has(String(rule.ruleType || 'threshold'))) return;
    const key = String(rule.fieldKey);
    if (!keys.has(key)) throw badRequest(DeviceMessages.alarmFieldNotInModel(index + 1, key));
  });
}

/** Products (`/api/basic/product`: list, detail, submit, remove, export) with model, programs, alarm rules. */
export function registerProductRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: productResource, table: product, hooks: { beforeChange, afterChange } });
}
