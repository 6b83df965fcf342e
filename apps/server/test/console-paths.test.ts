import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthPaths,
  DictPaths,
  ERROR_LOG_UPLOAD_PATH,
  GuestRegistrationPaths,
  MenuPaths,
  SOCIAL_RENDER_BASE,
  TENANT_INFO_PATH,
} from '@mes/contracts';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The console calls the sign-in and system routes through these constants of the contracts, and
 * the server registers them with the same ones: a constant the server does not serve is a page
 * that calls nothing.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('the sign-in and system paths of the contracts', () => {
  it('are every one a route the server serves', () => {
    const served = new Set(t.app.apiRoutes.map((r) => r.url));
    const paths = [
      ...Object.values(AuthPaths),
      ...Object.values(MenuPaths),
      ...Object.values(DictPaths),
      ...Object.values(GuestRegistrationPaths),
      TENANT_INFO_PATH,
      ERROR_LOG_UPLOAD_PATH,
      `${SOCIAL_RENDER_BASE}/:source`,
    ];
    const missing = paths.filter((path) => !served.has(`/api${path}`));
    expect(missing).toEqual([]);
  });
});
