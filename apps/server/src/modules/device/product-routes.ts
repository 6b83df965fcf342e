import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { productResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs } from '../../crud/resource-routes';
import { plcVariable, product, productAlarmRule, productField } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { DeviceMessages } from './messages';

const rowsOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? (value as Record<string, unknown>[]) : [];

/** The checks of a product's child rows against each other (the engine has checked each row). */
async function beforeChange(args: ChangeArgs): Promise<void> {
  await keepMappedFields(args);
  await checkAlarmFields(args);
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
const FIELD_RULE_TYPES = new Set(['threshold', 'rate', 'concentration']);

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
  registerResource(app, ctx, { def: productResource, table: product, hooks: { beforeChange } });
}
