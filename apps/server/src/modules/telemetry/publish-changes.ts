import {
  deviceCycleResource,
  deviceResource,
  onOffResource,
  warningResource,
  type LiveEvent,
  type LiveEventType,
} from '@mes/contracts';
import { announceRowChanges } from '../../platform/cache/row-changes';
import { notifyLive, type LiveQueryable } from '../../platform/live/notify-live';

/**
 * The resources whose rows an event of ingestion reports as written: a device's online change
 * writes its on/off record too (device-presence.ts), whether from a batch or the inactivity sweep.
 */
const ROWS_OF: Partial<Record<LiveEventType, readonly string[]>> = {
  warning: [warningResource.code],
  cycle: [deviceCycleResource.code],
  device: [deviceResource.code, onOffResource.code],
};

/**
 * Inside the batch's (or the sweep's) transaction: the live events for the browsers, and the
 * announcement that the rows behind them changed, so list totals and filtered pages (warnings,
 * cycles, devices by online state) are not served from before the change.
 */
export async function publishChanges(client: LiveQueryable, events: readonly LiveEvent[]): Promise<void> {
  if (!events.length) return;
  await notifyLive(client, events);
  await announceRowChanges(
    client,
    events.flatMap((e) => (ROWS_OF[e.type] ?? []).map((code) => ({ code, tenantId: e.tenantId }))),
  );
}
