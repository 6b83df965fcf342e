import type { Ingestion } from '../../src/modules/telemetry/ingestion';

/** One message of a device, as `mes/{tenant}/{code}/{kind}` carries it. */
export interface DeviceMessage {
  code: string;
  kind: string;
  payload: unknown;
}

/** Sends messages to ingestion as one batch and waits for its commit. */
export async function sendBatch(ingestion: Ingestion, tenantId: string, messages: readonly DeviceMessage[]) {
  for (const m of messages)
    ingestion.push(
      {
        topic: `mes/${tenantId}/${m.code}/${m.kind}`,
        payload: Buffer.from(typeof m.payload === 'string' ? m.payload : JSON.stringify(m.payload)),
        qos: 1,
        retain: false,
        clientId: '',
        receivedAt: new Date(),
      },
      () => undefined,
    );
  await ingestion.drain();
}
