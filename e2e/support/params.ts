import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { callApi } from './browser';
import { thisServer } from './server';

/**
 * Sets a platform parameter through the parameter API (creating it when missing), as the
 * administrator would on 参数管理. `page` must be signed in as the platform administrator.
 */
export async function setParam(page: Page, paramKey: string, paramValue: string): Promise<void> {
  const found = await callApi<{ records: { id: string; paramKey: string }[] }>(
    page,
    `/api/blade-system/param/list?paramKey=${encodeURIComponent(paramKey)}`,
  );
  const id = found.data.records.find((r) => r.paramKey === paramKey)?.id;
  const saved = await callApi(page, '/api/blade-system/param/submit', {
    ...(id ? { id } : { paramName: paramKey }),
    paramKey,
    paramValue,
  });
  expect(saved.success, saved.msg).toBe(true);
}

/** The e2e server's embedded MQTT broker (global-setup.ts gives it a free port). */
export const mqttUrl = () => `mqtt://127.0.0.1:${thisServer().mqttPort}`;
