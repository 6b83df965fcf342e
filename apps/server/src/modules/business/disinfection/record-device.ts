import { eq } from 'drizzle-orm';
import { recordTypeOfCategory } from '@mes/contracts';
import { nextId } from '../../../platform/db/ids';
import { device, product } from '../../../platform/db/schema';
import { badRequest } from '../../../platform/http/errors';
import { tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';

/** What a record takes from its device: its code (the chain), department, product and record type. */
export interface RecordDevice {
  deviceId: string;
  deviceCode: string;
  deptId: string | null;
  productId: string | null;
  recordType: number;
}

/** The device of a manual entry, with its product's category as the record type. */
export async function recordDevice(tx: Queryable, tenantId: string, deviceId: string): Promise<RecordDevice> {
  const [found] = await tenantScope(tx, tenantId)
    .select(device, {
      deviceCode: device.deviceCode,
      deptId: device.deptId,
      productId: device.productId,
    })
    .where(eq(device.id, deviceId));
  if (!found) throw badRequest({ zh: '所选设备不存在', en: 'The chosen device does not exist' });
  const [made] = found.productId
    ? await tenantScope(tx, tenantId)
        .select(product, { category: product.category })
        .where(eq(product.id, String(found.productId)))
    : [];
  return {
    deviceId,
    deviceCode: String(found.deviceCode),
    deptId: found.deptId === null ? null : String(found.deptId),
    productId: found.productId === null ? null : String(found.productId),
    recordType: recordTypeOfCategory(Number(made?.category ?? 0)),
  };
}

/** A record number: `XD` and a fresh id, unique without a counter to contend on. */
export const newRecordNo = () => `XD${nextId()}`;
