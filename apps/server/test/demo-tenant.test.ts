import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoTenant, type DemoResult } from '../src/modules/demo/demo-steps';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let first: DemoResult;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('demo tenant', () => {
  it('seeds', async () => {
    let last = performance.now();
    first = await seedDemoTenant(t.app, t.ctx, { now: Date.now() }, (step) => { const n = performance.now(); console.log('step', step, Math.round(n - last)); last = n; });
    console.log(first);
    expect(first.createdTenant).toBe(true);
  }, 120_000);
});
