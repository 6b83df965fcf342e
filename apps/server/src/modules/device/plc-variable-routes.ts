import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { plcVariableResource, decimalNumber as numberOf, rangeState, type ScalingColumns } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs, type Row } from '../../engine/resource-routes';
import { plcVariable, productField } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { DeviceMessages } from './messages';

/** The row as it will be: what was sent over what is stored. */
const merged = (values: Row, existing: Row | undefined, name: string): unknown =>
  name in values ? values[name] : existing?.[name];

/**
 * The name must be a field of the product's model (it is how a value finds its variable);
 * a raw → engineering range is all four values or none, and not flat; limits, where given,
 * are ordered LL ≤ L ≤ H ≤ HH.
 */
async function beforeChange({ tx, auth, values, existing }: ChangeArgs): Promise<void> {
  const row = (name: string) => merged(values, existing, name);
  const productId = row('productId');
  const name = String(row('name') ?? '');
  if (typeof productId === 'string' && name) {
    const [found] = await tenantScope(tx, auth.tenantId)
      .select(productField, { id: productField.id })
      .where(and(eq(productField.productId, productId), eq(productField.fieldKey, name)))
      .limit(1);
    if (!found) throw badRequest(DeviceMessages.variableNotInModel(name));
  }
  const scaling: ScalingColumns = {
    multiplier: row('multiplier'),
    offset: row('offset'),
    rawLow: row('rawLow'),
    rawHigh: row('rawHigh'),
    engLow: row('engLow'),
    engHigh: row('engHigh'),
  };
  const range = rangeState(scaling);
  if (range === 'partial') throw badRequest(DeviceMessages.partialRange);
  if (range === 'complete' && numberOf(scaling.rawLow) === numberOf(scaling.rawHigh))
    throw badRequest(DeviceMessages.flatRange);
  const limits = ['limitLl', 'limitL', 'limitH', 'limitHh']
    .map((f) => numberOf(row(f)))
    .filter((v): v is number => v !== undefined);
  if (limits.some((v, i) => i > 0 && v < (limits[i - 1] as number))) throw badRequest(DeviceMessages.limitsOrder);
}

/** PLC variables (`/api/basic/plcvariable`: list, detail, submit, remove, export). */
export function registerPlcVariableRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: plcVariableResource, table: plcVariable, hooks: { beforeChange } });
}
