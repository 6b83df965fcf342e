/**
 * Events pushed to signed-in browsers (docs/live.md): new, repeated, cleared, handled and escalated warnings,
 * devices going online or offline, finished cycles (the welcome figures) and released notices.
 * A server publishes them inside the transaction that made the change (PostgreSQL NOTIFY is sent
 * on commit, never for a rolled-back change); every server process listens and passes each to
 * the streams of its own browsers that may see it (tenant, API scope, data scope, audience).
 */

/** `GET /api/blade-desk/live`: a `text/event-stream` of `LiveEvent`s for the caller (`Blade-Auth` header). */
export const LIVE_STREAM_PATH = '/blade-desk/live';

/** `escalated`: nobody handled it within a step of the tenant's escalation (docs/warnings.md "Escalation"). */
export type WarningAction = 'raised' | 'repeated' | 'cleared' | 'handled' | 'escalated';

export interface WarningLiveEvent {
  type: 'warning';
  action: WarningAction;
  tenantId: string;
  /** For the data scope: the device's department. */
  deptId: string | null;
  warningId: string;
  warningNo: string;
  deviceCode: string;
  level: number;
  status: number;
  message: string;
  at: string;
}

export interface DeviceLiveEvent {
  type: 'device';
  /** `state`: its run state changed (`runState`), derived by ingestion or set by hand. */
  action: 'online' | 'offline' | 'state';
  runState?: number;
  tenantId: string;
  deptId: string | null;
  deviceCode: string;
  at: string;
}

export interface CycleLiveEvent {
  type: 'cycle';
  action: 'finished';
  tenantId: string;
  deptId: string | null;
  deviceCode: string;
  result: number;
  at: string;
}

export interface NoticeLiveEvent {
  type: 'notice';
  action: 'released' | 'changed' | 'removed';
  tenantId: string;
  noticeId: string;
  title: string;
  /** NoticeAudience and its ids (role or department ids), for the audience check. */
  audienceType: number;
  audienceIds: string[];
  at: string;
}

export type LiveEvent = WarningLiveEvent | DeviceLiveEvent | CycleLiveEvent | NoticeLiveEvent;
export type LiveEventType = LiveEvent['type'];
