/**
 * The messages of the ingest bench (bench/ingest-bench.ts): real reports of a demo product's
 * thing model (seed/demo-devices.ts), WL-PRO's 10 fields or ST-B23's 8, with the values the
 * simulator's process model produces (simulator/*-model.ts) and sent as the simulator sends them
 * (`encodeValues`: raw register counts where a PLC variable scales the field). So the server
 * checks, scales and rounds every field as it does for the demo devices.
 *
 * The sequence number a run's accounting counts rides in the model's `cycleCount` field (an int
 * of both products, a counter by nature): it is stored like any other field, in the telemetry
 * points today and in the acquisition row's values whatever the layout.
 */
import type { ModelField } from '../apps/server/src/modules/telemetry/device-directory';
import { deriveScaling, isIdentity } from '@mes/contracts';
import {
  plcVariableValues,
  STERILISER_PRODUCT,
  WATERLINE_PRODUCT,
  type DemoProduct,
} from '../apps/server/src/seed/demo-devices';
import { createProcess } from '../apps/server/src/simulator/device-model';
import { encodeValues } from '../apps/server/src/simulator/device-runner';
import type { TelemetryValue } from '../apps/server/src/simulator/model';
import type { RawEncoding, SimDevice } from '../apps/server/src/simulator/provision';
import { seededRng, seedOf } from '../apps/server/src/simulator/rng';

export type BenchModelName = 'wl-pro' | 'st-b23';

/** The model field that carries a message's sequence number. */
export const SEQUENCE_FIELD = 'cycleCount';

/** Distinct value snapshots per device; a message takes snapshot `seq % SNAPSHOTS` of its device. */
const SNAPSHOTS = 1000;
/** Simulated seconds between two snapshots: 1,000 of them span about 17 hours, cycles included. */
const STEP_SECONDS = 60;
const INTEGER_REGISTERS = new Set(['INT16', 'UINT16', 'INT32']);

export interface BenchModel {
  name: BenchModelName;
  product: DemoProduct;
  /** The thing model as the server's directory gives it to ingestion (with the PLC scaling). */
  fields: ModelField[];
  /** The values of message `seq` from device `D{device}`, as the device sends them. */
  values(device: number, seq: number): Record<string, TelemetryValue>;
}

export function parseModelNames(text: string): BenchModelName[] {
  const names = text.split(',').map((s) => s.trim().toLowerCase());
  for (const name of names)
    if (name !== 'wl-pro' && name !== 'st-b23') throw new Error(`BENCH_MODEL: ${name} is neither wl-pro nor st-b23`);
  return names as BenchModelName[];
}

/** Raw → engineering scaling of each field a PLC variable maps, as the server's directory derives it. */
function rawEncodings(product: DemoProduct): Map<string, RawEncoding> {
  const raw = new Map<string, RawEncoding>();
  for (const v of product.plcVariables) {
    const scaling = deriveScaling(plcVariableValues(v));
    if (!isIdentity(scaling) && scaling.multiplier !== 0)
      raw.set(v.name, { scaling, integer: INTEGER_REGISTERS.has(v.dataType) });
  }
  return raw;
}

export function benchModel(name: BenchModelName, devices: number): BenchModel {
  const product = name === 'wl-pro' ? WATERLINE_PRODUCT : STERILISER_PRODUCT;
  const raw = rawEncodings(product);
  const fields: ModelField[] = product.fields.map((f) => {
    const encoding = raw.get(f.fieldKey);
    return {
      field: f.fieldKey,
      dataType: f.dataType,
      unit: f.unit,
      precision: f.precision,
      ...(encoding ? { scaling: encoding.scaling } : {}),
    };
  });
  const snapshots = Array.from({ length: devices }, (_, d) => {
    const code = `${product.productCode}-D${d}`;
    const device: SimDevice = {
      id: String(d + 1),
      deviceCode: code,
      clientId: '',
      secret: '',
      product: {
        kind: product.kind,
        productId: '1',
        productCode: product.productCode,
        fields: new Set(product.fields.map((f) => f.fieldKey)),
        raw,
      },
    };
    // The simulator's defaults: a cycle faults now and then, the day starts at 07:00.
    const process = createProcess(product.kind, seededRng(seedOf(code)), {
      faultProbability: 0.03,
      startTimeOfDay: 7 * 3600,
    });
    return Array.from({ length: SNAPSHOTS }, () => {
      process.advance(STEP_SECONDS);
      return encodeValues(device, process.values());
    });
  });
  return {
    name,
    product,
    fields,
    values(device, seq) {
      const snapshot = snapshots[device % devices]?.[seq % SNAPSHOTS] ?? {};
      return { ...snapshot, [SEQUENCE_FIELD]: seq };
    },
  };
}
