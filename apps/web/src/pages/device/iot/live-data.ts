import { keepPreviousData, queryOptions, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  deviceResource,
  IOT_MODEL_DATA_PATH,
  IOT_MODEL_LIST_PATH,
  productResource,
  telemetryResource,
  type DeviceCycleNow,
  type ModelDataItem,
  type ModelListReply,
  type PageResult,
  type TelemetryListRow,
} from '@mes/contracts';
import { useLiveEvents } from '../../../api/live-events';
import { apiGet, apiKey, apiQuery, type ApiParams } from '../../../api/server-state';
import { isChartable } from './format';

/**
 * Everything the live device page reads, in one place. Values poll; the device's online state
 * also follows the server's `device` events at once (docs/live.md). The page takes what
 * {@link useDeviceLive} and {@link useTelemetryRows} return and knows nothing of how it arrives.
 */

/** How often the newest values are read while the page is shown. */
export const VALUES_POLL_MS = 2_000;
/** The device row (online flag, last activity) changes less often than its values. */
const DEVICE_POLL_MS = 5_000;
/** The raw rows' first page follows the values, a little slower (it is a heavier read). */
const ROWS_POLL_MS = 5_000;
/** Points asked of model-list: about one per pixel of a wide chart; more is downsampled by the server. */
const MAX_POINTS = 600;

export type RangePreset = '1h' | '24h' | '7d';
export const RANGE_PRESETS: readonly RangePreset[] = ['1h', '24h', '7d'];
const PRESET_MS: Record<RangePreset, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
/**
 * A preset range ends now and slides forward on every read; the longer the range, the less a
 * few seconds change it, so it is read less often.
 */
const PRESET_POLL_MS: Record<RangePreset, number> = { '1h': 2_000, '24h': 15_000, '7d': 60_000 };

/** A preset range ending now, or a fixed one (epoch ms) from the date picker. */
export type ChartRange = { preset: RangePreset } | { from: number; to: number };

/** A device row as the generic device list sends it (the fields this page shows). */
export interface DeviceRow {
  id: string;
  deviceCode: string;
  deviceName: string;
  productId: string;
  productIdName?: string;
  deptIdName?: string;
  online: boolean;
  runState: number;
  runStateName?: string;
  /** The current cycle, from the latest values of the fields the product names (null: none named). */
  cycle?: DeviceCycleNow | null;
  lastConnectTime: string | null;
  lastDisconnectTime: string | null;
  lastActivityTime: string | null;
}

export const DEVICE_LIST_URL = `${deviceResource.api}/list`;
const TELEMETRY_LIST_URL = `${telemetryResource.api}/${telemetryResource.listRoute ?? 'list'}`;

/** One device by its code, exactly (a bare `deviceCode` filter would be a LIKE). */
function deviceQuery(deviceCode: string) {
  return queryOptions({
    ...apiQuery<PageResult<DeviceRow>>(
      DEVICE_LIST_URL,
      { deviceCode_equal: deviceCode, current: 1, size: 1 },
      { silent: true },
    ),
    select: (page: PageResult<DeviceRow>) => page.records.find((r) => r.deviceCode === deviceCode) ?? null,
  });
}

function seriesQuery(deviceCode: string, field: string, range: ChartRange) {
  const rangeKey = 'preset' in range ? range.preset : `${range.from}-${range.to}`;
  return queryOptions({
    // The key names the range, not its instants: a sliding range stays one cache entry.
    queryKey: apiKey(IOT_MODEL_LIST_PATH, { deviceCode, field, range: rangeKey }),
    queryFn: ({ signal }) => {
      const to = 'preset' in range ? Date.now() : range.to;
      const from = 'preset' in range ? to - PRESET_MS[range.preset] : range.from;
      const params: ApiParams = { deviceCode, field, startTime: from, endTime: to, maxPoints: MAX_POINTS };
      return apiGet<ModelListReply>(IOT_MODEL_LIST_PATH, params, { signal, silent: true });
    },
    meta: { silent: true },
  });
}

export interface DeviceLive {
  /** `data` null: no such device in the caller's tenant (or not visible to them). */
  device: UseQueryResult<DeviceRow | null>;
  /** The product's inactivity timeout (s): a value older than this is stale. */
  inactivitySeconds: number | undefined;
  values: UseQueryResult<ModelDataItem[]>;
  series: UseQueryResult<ModelListReply>;
  /** The field charted: the one chosen while the model has it, else the model's first numeric field. */
  field: string | undefined;
}

/**
 * The device, its newest value of every model field and the chosen field's series, kept fresh
 * while the page is shown: TanStack Query polls only for mounted observers (a hidden tab's screen
 * unmounts its effects) and not while the browser tab is in the background.
 */
export function useDeviceLive(
  deviceCode: string,
  chart: { /** The field the user chose, if any. */ field: string | undefined; range: ChartRange },
): DeviceLive {
  const device = useQuery({ ...deviceQuery(deviceCode), refetchInterval: DEVICE_POLL_MS, staleTime: 0 });
  // The online flag changes the moment the server pushes it (docs/live.md); the poll stays as a net.
  const client = useQueryClient();
  useLiveEvents(['device'], (event) => {
    if (event.type === 'device' && event.deviceCode === deviceCode) {
      void client.invalidateQueries({ queryKey: deviceQuery(deviceCode).queryKey });
    }
  });
  const productId = device.data?.productId;
  const product = useQuery({
    ...apiQuery<{ inactivitySeconds?: number }>(
      `${productResource.api}/detail`,
      { id: productId ?? '' },
      { silent: true, staleTime: 5 * 60_000 },
    ),
    enabled: !!productId,
  });
  const values = useQuery({
    ...apiQuery<ModelDataItem[]>(IOT_MODEL_DATA_PATH, { deviceCode }, { silent: true }),
    enabled: !!device.data,
    refetchInterval: VALUES_POLL_MS,
    staleTime: 0,
  });
  const { range } = chart;
  const model = values.data ?? [];
  const field = model.some((f) => f.field === chart.field) ? chart.field : model.find((f) => isChartable(f))?.field;
  const series = useQuery({
    ...seriesQuery(deviceCode, field ?? '', range),
    enabled: !!device.data && !!field,
    refetchInterval: 'preset' in range ? PRESET_POLL_MS[range.preset] : false,
    staleTime: 0,
    // Switching field or range keeps the old line until the new one arrives: no blank flash.
    placeholderData: keepPreviousData,
  });
  return { device, inactivitySeconds: product.data?.inactivitySeconds, values, series, field };
}

/** A page of the device's raw telemetry, newest first; the first page follows new rows. */
export function useTelemetryRows(deviceCode: string, current: number, size: number) {
  return useQuery({
    ...apiQuery<PageResult<TelemetryListRow>>(
      TELEMETRY_LIST_URL,
      { deviceCode_equal: deviceCode, current, size },
      { silent: true },
    ),
    refetchInterval: current === 1 ? ROWS_POLL_MS : false,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** The clock, ticking every `ms` while the component is mounted (ages of shown values). */
export function useNow(ms = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
