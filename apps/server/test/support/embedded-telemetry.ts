import type { AppContext } from '../../src/app-context';
import { createDeviceDirectory } from '../../src/modules/device';
import { startTelemetry, type TelemetryRuntime } from '../../src/modules/telemetry';

/** The embedded broker and ingestion as main.ts wires them to the app, on a free port, ready. */
export async function startEmbeddedTelemetry(ctx: AppContext): Promise<TelemetryRuntime> {
  const runtime = await startTelemetry(
    ctx,
    createDeviceDirectory(ctx),
    { url: undefined, host: '127.0.0.1', port: 0 },
    // Short batches: a test's acknowledgements come quickly.
    { batchDelayMs: 20 },
  );
  await runtime.ready;
  return runtime;
}
