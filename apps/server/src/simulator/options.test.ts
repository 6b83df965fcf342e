import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeValues } from './device-runner';
import { parseOptions } from './options';
import type { SimDevice } from './provision';

describe('simulator options', () => {
  it('defaults to the demo devices at 1/s on the console’s embedded broker', () => {
    const o = parseOptions([], { ADMIN_PASSWORD: 'from-env-123' }, '/');
    expect(o).toMatchObject({
      devices: 4,
      rate: 1,
      api: 'http://localhost:8080',
      tenant: '000000',
      account: 'admin',
      password: 'from-env-123',
      mqtt: 'mqtt://127.0.0.1:1883',
      mqttDefaulted: true,
      broker: 'embedded',
      duration: undefined,
    });
    expect(parseOptions([], { ADMIN_PASSWORD: 'x'.repeat(8), MQTT_PORT: '1884' }, '/')?.mqtt).toBe(
      'mqtt://127.0.0.1:1884',
    );
    expect(parseOptions(['--help'], {}, '/')).toBeUndefined();
  });

  it('reads the generated admin password from DATA_DIR, and the external broker from MQTT_URL', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-options-'));
    try {
      fs.mkdirSync(path.join(dir, 'data'));
      fs.writeFileSync(
        path.join(dir, 'data', 'admin-password.txt'),
        'tenant 000000, account admin, password Gen_123-x\n',
      );
      expect(parseOptions([], {}, dir)?.password).toBe('Gen_123-x');
      const o = parseOptions([], { MQTT_URL: 'mqtt://mes-console:pw@10.0.0.5:1883' }, dir);
      expect(o).toMatchObject({ mqtt: 'mqtt://10.0.0.5:1883', broker: 'external' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(() => parseOptions([], {}, '/nonexistent')).toThrow(/no password for the console/);
  });

  it("reads the demo tenant's password from DATA_DIR/demo-password.txt for that tenant only", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-options-'));
    try {
      fs.mkdirSync(path.join(dir, 'data'));
      fs.writeFileSync(path.join(dir, 'data', 'demo-password.txt'), 'tenant 100001, account admin, password Demo_9\n');
      expect(parseOptions(['--tenant', '100001'], { ADMIN_PASSWORD: 'platform-pw' }, dir)?.password).toBe('Demo_9');
      expect(() => parseOptions(['--tenant', '100002'], {}, dir)).toThrow(/no password for tenant 100002/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad values by name', () => {
    const env = { ADMIN_PASSWORD: 'x'.repeat(8) };
    expect(() => parseOptions(['--rate', 'fast'], env, '/')).toThrow('--rate must be a number from 0.01 to 1000');
    expect(() => parseOptions(['--devices', '0'], env, '/')).toThrow('--devices must be a number');
    expect(() => parseOptions(['--mqtt', 'http://x'], env, '/')).toThrow('--mqtt must be a URL');
    expect(() => parseOptions(['--broker', 'aws'], env, '/')).toThrow('--broker must be embedded or external');
    expect(() => parseOptions(['--nope'], env, '/')).toThrow(/Unknown option '--nope'/);
  });
});

describe('what a device sends', () => {
  const device = {
    product: {
      fields: new Set(['chlorine', 'ph', 'program']),
      raw: new Map([
        ['chlorine', { scaling: { multiplier: 0.01, offset: 0 }, integer: true }],
        ['ph', { scaling: { multiplier: 2, offset: 1 }, integer: false }],
      ]),
    },
  } as unknown as SimDevice;

  it('sends raw counts for fields a PLC variable scales and leaves out fields outside the model', () => {
    expect(encodeValues(device, { chlorine: 1.234, ph: 7, program: 2, orp: 650 })).toEqual({
      chlorine: 123,
      ph: 3,
      program: 2,
    });
  });
});
