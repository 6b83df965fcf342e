import type { MqttClient } from 'mqtt';
import { expect } from 'vitest';
import { DEVICE_ROTATE_SECRET_PATH, type DeviceSecretReply } from '@mes/contracts';
import { connectWithSecret } from './pg-telemetry';
import type { TestApp } from './test-app';

/**
 * A product, one device of it and that device connected to the embedded broker, made through the
 * console's own routes as an administrator would (product with its model and programs, PLC
 * variables, device, first secret), for the server tests that drive a device's data end to end
 * (cycle judgement, chart limits). The caller ends `client`.
 */

/** `post` / `get` of a signed-in user, each asserting a 200 and answering the envelope's `data`. */
export function apiAs(t: TestApp, token: string) {
  return {
    post: async <T = unknown>(url: string, payload: Record<string, unknown>): Promise<T> => {
      const reply = await t.as(token, { method: 'POST', url, payload });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ data: T }>().data;
    },
    get: async <T>(url: string): Promise<T> => {
      const reply = await t.as(token, { method: 'GET', url });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ data: T }>().data;
    },
  };
}

type Field = { fieldKey: string; fieldName: string; dataType: string; unit: string; precision: number; access: 'r' };
const field = (fieldKey: string, fieldName: string, dataType: string, unit = '', precision = 0): Field => ({
  fieldKey,
  fieldName,
  dataType,
  unit,
  precision,
  access: 'r',
});

/** A steam steriliser's chamber probe: temperature and pressure. */
export const CHAMBER_FIELDS: readonly Field[] = [
  field('chamberTemp', '腔体温度', 'float', '℃', 1),
  field('chamberPressure', '腔体压力', 'float', 'kPa', 1),
];
/** The program and phase the run state and the cycle line read. */
export const CYCLE_FIELDS: readonly Field[] = [field('program', '程序', 'int'), field('phase', '阶段', 'int')];

/** The usual 134 ℃ program's validated profile (F0, plateau 134–137 ℃, 180 s, 200–230 kPa). */
export const PROGRAM_134 = {
  programNo: 1,
  programName: '134℃ 标准',
  durationMinutes: 30,
  lethalityKind: 'F0',
  plateauMin: '134',
  plateauMax: '137',
  minHoldSeconds: 180,
  pressureMin: '200',
  pressureMax: '230',
} as const;

export interface DeviceFixtureOptions {
  /** The product's columns besides its code and name (fields, programs, run-state fields …). */
  product: Record<string, unknown> & { productCode: string; productName: string };
  deviceCode: string;
  deviceName: string;
  /** PLC variables of the product (`plcvariable/submit` bodies without the product). */
  plcVariables?: readonly Record<string, unknown>[];
}

export interface DeviceFixture {
  productId: string;
  deviceId: string;
  secret: DeviceSecretReply;
  client: MqttClient;
  /** Publishes on the device's `telemetry` or `cycle` topic, QoS 1, resolving on the broker's acknowledgement. */
  publish(kind: 'telemetry' | 'cycle', body: unknown): Promise<void>;
}

export async function deviceFixture(
  t: TestApp,
  token: string,
  brokerPort: number | undefined,
  options: DeviceFixtureOptions,
): Promise<DeviceFixture> {
  const { post } = apiAs(t, token);
  const productId = String(
    await post('/api/basic/product/submit', { category: 2, protocol: 'mqtt-json', ...options.product }),
  );
  for (const variable of options.plcVariables ?? [])
    await post('/api/basic/plcvariable/submit', { productId, ...variable });
  const deviceId = String(
    await post('/api/basic/device/submit', {
      deviceCode: options.deviceCode,
      deviceName: options.deviceName,
      productId,
    }),
  );
  const secret = await post<DeviceSecretReply>(`/api${DEVICE_ROTATE_SECRET_PATH}?id=${deviceId}&first=1`, {});
  const client = await connectWithSecret(brokerPort, secret);
  const publish = (kind: 'telemetry' | 'cycle', body: unknown) =>
    new Promise<void>((resolve, reject) =>
      client.publish(`${secret.topicPrefix}/${kind}`, JSON.stringify(body), { qos: 1 }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  return { productId, deviceId, secret, client, publish };
}
