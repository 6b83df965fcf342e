import {
  DEVICE_ROTATE_SECRET_PATH,
  type DeviceSecretReply,
  type PageResult,
  deriveScaling,
  isIdentity,
  type Scaling,
  type ScalingColumns,
} from '@mes/contracts';
import { DEMO_DEVICES, STERILISER_PRODUCT, WATERLINE_PRODUCT, type DemoProduct } from '../seed/demo-devices';
import { ensureDemoClinic } from './demo-clinic';
import type { ConsoleApi } from './console-api';
import type { DeviceKind } from './device-model';
import { SimulatorError } from './errors';

/** How a model field goes on the wire when a PLC variable scales it: the raw register value. */
export interface RawEncoding {
  scaling: Scaling;
  /** Integer registers (INT16, UINT16, INT32) carry whole counts. */
  integer: boolean;
}

/** What a simulated device publishes with: the product's model as the console has it now. */
export interface ProductModel {
  kind: DeviceKind;
  productId: string;
  productCode: string;
  /** Field keys of the product's thing model: only these are published. */
  fields: ReadonlySet<string>;
  raw: ReadonlyMap<string, RawEncoding>;
}

export interface SimDevice {
  id: string;
  deviceCode: string;
  product: ProductModel;
  clientId: string;
  secret: string;
}

interface ProductRow {
  id: string;
  productCode: string;
}
interface DeviceRow {
  id: string;
  deviceCode: string;
  productId: string;
  deptId?: string | null;
}
interface PlcRow extends ScalingColumns {
  name: string;
  dataType: string;
}

const PAGE = 1000;
const INTEGER_TYPES = new Set(['INT16', 'UINT16', 'INT32']);

async function listAll<T>(api: ConsoleApi, path: string, query: Record<string, string> = {}): Promise<T[]> {
  const rows: T[] = [];
  for (let current = 1; ; current++) {
    const page = await api.get<PageResult<T>>(path, { ...query, current, size: PAGE });
    rows.push(...page.records);
    if (page.records.length < PAGE) return rows;
  }
}

/** Runs `work` over `items`, `limit` at a time (the console is one process on a small machine). */
export async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function productModel(
  api: ConsoleApi,
  demo: DemoProduct,
  products: readonly ProductRow[],
): Promise<ProductModel> {
  const row = products.find((p) => p.productCode === demo.productCode);
  if (!row)
    throw new SimulatorError(
      `product ${demo.productCode} is missing in tenant ${api.tenant}: the console seeds it (with the demo devices) ` +
        'at the first start of a fresh install. Start one with an empty DATA_DIR (or a new database)',
    );
  const detail = await api.get<{ fields?: { fieldKey: string }[] }>('/api/basic/product/detail', { id: row.id });
  const fields = new Set((detail.fields ?? []).map((f) => f.fieldKey));
  const raw = new Map<string, RawEncoding>();
  for (const v of await listAll<PlcRow>(api, '/api/basic/plcvariable/list', { productId: row.id })) {
    const scaling = deriveScaling(v);
    if (!isIdentity(scaling) && scaling.multiplier !== 0)
      raw.set(v.name, { scaling, integer: INTEGER_TYPES.has(v.dataType) });
  }
  return { kind: demo.kind, productId: row.id, productCode: demo.productCode, fields, raw };
}

export const simDeviceCode = (n: number) => `SIM-${String(n).padStart(4, '0')}`;

/**
 * Makes sure `count` devices of the demo products exist (the seeded demo devices first, then
 * `SIM-0001`, `SIM-0002` … alternating waterline and steriliser) and gives each a new MQTT secret.
 * The rotation replaces a secret in use: a real device with one of these codes must get the new one.
 */
export async function provisionDevices(
  api: ConsoleApi,
  count: number,
  log: (line: string) => void,
): Promise<SimDevice[]> {
  const products = await listAll<ProductRow>(api, '/api/basic/product/list');
  const waterline = await productModel(api, WATERLINE_PRODUCT, products);
  const steriliser = await productModel(api, STERILISER_PRODUCT, products);
  const byProductId = new Map([waterline, steriliser].map((p) => [p.productId, p]));

  const existing = (await listAll<DeviceRow>(api, '/api/basic/device/list')).filter((d) =>
    byProductId.has(d.productId),
  );
  const byCode = new Map(existing.map((d) => [d.deviceCode, d]));
  // The seeded demo devices, then the tenant's other demo devices of these products (the demo
  // tenant's DEMO-WL-03 …, docs/demo.md) by code, then SIM-… devices. Only demo and simulator codes:
  // a rotation would lock a real device out.
  const demoCodes = new Set(DEMO_DEVICES.map((d) => d.deviceCode));
  const others = existing
    .filter((d) => d.deviceCode.startsWith('DEMO-') && !demoCodes.has(d.deviceCode))
    .sort((a, b) => a.deviceCode.localeCompare(b.deviceCode));
  const chosen: DeviceRow[] = [...DEMO_DEVICES.flatMap((d) => byCode.get(d.deviceCode) ?? []), ...others].slice(
    0,
    count,
  );

  const missing: { code: string; product: ProductModel; n: number }[] = [];
  for (let n = 1; chosen.length + missing.length < count; n++) {
    const code = simDeviceCode(n);
    const found = byCode.get(code);
    if (found) chosen.push(found);
    else missing.push({ code, product: n % 2 === 1 ? waterline : steriliser, n });
  }
  // The seeded demo devices have no department until the first run files them under the clinic;
  // a tenant whose devices all stand somewhere (the demo tenant) gets no demo clinic.
  const homeless = chosen.filter((d) => !d.deptId);
  const clinic = homeless.length || missing.length ? await ensureDemoClinic(api) : '';
  await inBatches(homeless, 8, (d) => api.post('/api/basic/device/submit', { id: d.id, deptId: clinic }));
  if (missing.length) log(`creating ${missing.length} devices (${missing[0]?.code} …)`);
  const created = await inBatches(missing, 8, async ({ code, product, n }) => {
    const isWaterline = product.kind === 'waterline';
    const id = await api.post<string>('/api/basic/device/submit', {
      deviceCode: code,
      deviceName: `${isWaterline ? '模拟水路消毒机' : '模拟灭菌器'} ${String(n).padStart(4, '0')}`,
      productId: product.productId,
      deptId: clinic,
      chairs: isWaterline ? 1 + (n % 4) : 0,
      location: '模拟器',
      firmware: 'sim',
      remark: '模拟设备(npm run simulate)',
    });
    return { id: String(id), deviceCode: code, productId: product.productId };
  });
  const all = [...chosen, ...created];

  log(`issuing new MQTT secrets for ${all.length} devices`);
  return inBatches(all, 8, async (d) => {
    const reply = await api.post<DeviceSecretReply>(`/api${DEVICE_ROTATE_SECRET_PATH}?id=${d.id}`);
    return {
      id: d.id,
      deviceCode: d.deviceCode,
      product: byProductId.get(d.productId) as ProductModel,
      clientId: reply.clientId,
      secret: reply.secret,
    };
  });
}
