import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiLogEnabled, ConfigError, loadConfig, mqttConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, logLevel: 'info', databaseUrl: undefined, redisUrl: undefined });
    expect(c.dataDir).toBe(path.resolve('./data'));
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '9000',
      DATA_DIR: '/srv/mes',
      DATABASE_URL: 'postgresql://u:p@db:5432/mes',
      REDIS_URL: 'redis://cache:6379',
      JWT_SECRET: 'x'.repeat(32),
      ADMIN_PASSWORD: 'long enough',
      LOG_LEVEL: 'debug',
      API_LOG: 'OFF',
      TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,loopback,fd00::/8',
      API_DOCS: 'on',
      SEED_DEMO: 'TRUE',
      METRICS_TOKEN: 'm'.repeat(16),
      LIVE_STREAMS_PER_USER: '4',
      EXPORTS_PER_TENANT: '2',
      REPORTS_PER_TENANT: '7',
    });
    expect(c).toEqual({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/srv/mes',
      databaseUrl: 'postgresql://u:p@db:5432/mes',
      redisUrl: 'redis://cache:6379',
      jwtSecret: 'x'.repeat(32),
      adminPassword: 'long enough',
      logLevel: 'debug',
      apiLog: false,
      trustProxy: ['10.0.0.5', '192.168.0.0/16', 'loopback', 'fd00::/8'],
      apiDocs: true,
      seedDemo: true,
      metricsToken: 'm'.repeat(16),
      fairShares: { liveStreamsPerUser: 4, exportsPerTenant: 2, reportsPerTenant: 7, slotSeconds: 30 },
    });
  });

  it('serves no /metrics without a token, refuses a short one, and takes fair-share limits from 1 to 10000', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(loadConfig({}).fairShares).toEqual({
      liveStreamsPerUser: 10,
      exportsPerTenant: 3,
      reportsPerTenant: 5,
      slotSeconds: 30,
    });
    expect(loadConfig({ FAIR_SHARE_SLOT_SECONDS: '5' }).fairShares.slotSeconds).toBe(5);
    expect(() => loadConfig({ FAIR_SHARE_SLOT_SECONDS: '1' })).toThrow(
      /FAIR_SHARE_SLOT_SECONDS: must be a whole number/,
    );
    expect(() => loadConfig({ EXPORTS_PER_TENANT: '0' })).toThrow(/EXPORTS_PER_TENANT: must be a whole number from 1/);
  });

  it('fills no demo tenant unless told, and names a bad SEED_DEMO', () => {
    expect(loadConfig({}).seedDemo).toBe(false);
    expect(() => loadConfig({ SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO: must be true or false/);
  });

  it('trusts no proxy and hides the API map unless told', () => {
    expect(loadConfig({})).toMatchObject({ trustProxy: [], apiDocs: false });
  });

  it.each(['true', '*', '10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/1'])(
    'refuses TRUST_PROXY=%s: only addresses, CIDRs or the named ranges',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be comma-separated IP addresses/);
    },
  );

  it('keeps the API log on unless API_LOG is off, and refuses other values', () => {
    expect(loadConfig({}).apiLog).toBe(true);
    expect(loadConfig({ API_LOG: 'on' }).apiLog).toBe(true);
    expect(() => loadConfig({ API_LOG: 'no' })).toThrow(/API_LOG: must be one of on, off/);
    expect(apiLogEnabled({ API_LOG: 'off' })).toBe(false);
    expect(apiLogEnabled({})).toBe(true);
  });

  it('allows devices 300 s of clock skew unless MQTT_MAX_CLOCK_SKEW_SECONDS says otherwise, and names a bad one', () => {
    expect(mqttConfig({}).maxClockSkewSeconds).toBe(300);
    expect(mqttConfig({ MQTT_MAX_CLOCK_SKEW_SECONDS: '0' }).maxClockSkewSeconds).toBe(0);
    expect(mqttConfig({ MQTT_MAX_CLOCK_SKEW_SECONDS: '86400' }).maxClockSkewSeconds).toBe(86_400);
    for (const bad of ['-1', '1.5', '5m', '86401', ''])
      expect(() => loadConfig({ MQTT_MAX_CLOCK_SKEW_SECONDS: bad })).toThrow(
        /MQTT_MAX_CLOCK_SKEW_SECONDS: must be a whole number of seconds from 0 to 86400/,
      );
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '  ', JWT_SECRET: '' })).toMatchObject({
      databaseUrl: undefined,
      jwtSecret: undefined,
    });
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ PORT: '0', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as Error).message).toContain('PORT: must be a whole number from 1 to 65535');
      expect((e as Error).message).toContain('LOG_LEVEL: must be one of');
    }
  });
});

describe('MQTT_MAX_PACKET_BYTES', () => {
  it('defaults to 256 KB, reads a value, and stops a start with a bad one', () => {
    expect(mqttConfig({}).maxPacketBytes).toBe(262_144);
    expect(mqttConfig({ MQTT_MAX_PACKET_BYTES: '65536' }).maxPacketBytes).toBe(65_536);
    for (const bad of ['1000', '268435456', '1e6', 'big']) {
      try {
        loadConfig({ MQTT_MAX_PACKET_BYTES: bad });
        expect.unreachable();
      } catch (e) {
        expect((e as Error).message).toContain('MQTT_MAX_PACKET_BYTES: must be a whole number of bytes from 1024');
      }
    }
  });
});
