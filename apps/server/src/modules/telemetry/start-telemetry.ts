import type { MqttConfig } from '../../platform/config';
import { startMqtt, type MqttContext, type MqttRuntime, type MqttTuning } from '../../platform/mqtt/start-mqtt';
import type { RuleChanges } from './alarm-rules';
import type { DeviceDirectory } from './device-directory';
import { watchIngestion } from '../../platform/metrics/metrics';
import { Ingestion } from './ingestion';
import type { TotalsWriters } from '../../engine/totals-invalidation';

export interface TelemetryContext extends MqttContext {
  /** The change feed (the server's): alarm rules cached per device follow product and device changes. */
  changes?: RuleChanges;
  /** The list totals (the server's): what ingestion writes drops them within about a second. */
  totals?: TotalsWriters;
}

export type TelemetryRuntime = MqttRuntime<Ingestion>;

/** Device telemetry: the MQTT transport (platform/mqtt) handing its messages to ingestion. */
export async function startTelemetry(
  ctx: TelemetryContext,
  directory: DeviceDirectory,
  config: MqttConfig,
  tuning: MqttTuning = {},
): Promise<TelemetryRuntime> {
  const runtime = await startMqtt(ctx, directory, config, tuning, (hooks) => {
    const { batchSize, batchDelayMs, maxQueue } = tuning;
    return new Ingestion({
      pool: ctx.database.pool,
      directory,
      warn: (message, error) => ctx.logs.warn(message, error),
      now: () => ctx.clock.now(),
      ...(ctx.changes ? { changes: ctx.changes } : {}),
      ...(ctx.totals ? { totals: ctx.totals } : {}),
      ...(batchSize !== undefined ? { batchSize } : {}),
      ...(batchDelayMs !== undefined ? { batchDelayMs } : {}),
      ...(maxQueue !== undefined ? { maxQueue } : {}),
      ...(config.maxClockSkewSeconds !== undefined ? { maxClockSkewMs: config.maxClockSkewSeconds * 1000 } : {}),
      ...hooks,
    });
  });
  // Its counters and queue on /metrics, read when scraped (nothing added per message).
  const unwatch = watchIngestion(runtime.ingestion);
  const stop = runtime.stop;
  runtime.stop = async () => {
    await stop();
    unwatch();
  };
  return runtime;
}
