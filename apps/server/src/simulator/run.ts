import fs from 'node:fs';
import { ConsoleApi } from './console-api';
import { createProcess } from './device-model';
import { SimulatedDevice, type RunnerConfig } from './device-runner';
import { SimulatorError } from './errors';
import type { SimulatorOptions } from './options';
import { inBatches, provisionDevices, type SimDevice } from './provision';
import { seededRng, seedOf } from './rng';
import { SimStats } from './stats';

export interface RunHooks {
  log: (line: string) => void;
  /** Aborting stops the run (Ctrl-C); otherwise it runs for `duration`. */
  signal?: AbortSignal;
  /** Seconds between summary lines (default 5). */
  summaryEvery?: number;
  /** Real seconds a device that dropped its connection stays away (default 3–15). */
  reconnectAfter?: readonly [number, number];
}

export interface RunResult {
  devices: {
    deviceCode: string;
    productCode: string;
    published: number;
    acked: number;
    cycles: number;
    /** Connected at the end and said `offline` itself; otherwise its will said it when it dropped. */
    saidOffline: boolean;
  }[];
  stats: SimStats;
  seconds: number;
}

/** The connect error as the user can act on it: which broker, and what to start or pass instead. */
function brokerProblem(options: SimulatorOptions, error: Error & { code?: unknown }): SimulatorError {
  const port = new URL(options.mqtt).port || '1883';
  const moveHint =
    options.mqttDefaulted && options.broker === 'embedded'
      ? ` — if another broker (Mosquitto) holds ${port}, the console's embedded broker is not on ${port}: ` +
        'start the console with MQTT_PORT=1884 and pass --mqtt mqtt://127.0.0.1:1884'
      : '';
  if (error.code === 'ECONNREFUSED')
    return new SimulatorError(
      `no MQTT broker at ${options.mqtt} (connection refused): is the console running, and on which MQTT_PORT? ` +
        `Pass --mqtt mqtt://127.0.0.1:<MQTT_PORT>${moveHint}`,
    );
  if (error.code === 4 || error.code === 5)
    return new SimulatorError(
      `the broker at ${options.mqtt} refused the device's credentials (${error.message})${moveHint}` +
        (options.broker === 'external'
          ? '; an external broker needs each device in its password file (--credentials writes them)'
          : ''),
    );
  return new SimulatorError(`cannot connect to the broker at ${options.mqtt}: ${error.message}${moveHint}`);
}

/** Waits until the console shows the device online: proof that the broker is the one the console reads. */
async function consoleSeesOnline(api: ConsoleApi, device: SimDevice, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const row = await api.get<{ online?: boolean }>('/api/basic/device/detail', { id: device.id });
    if (row.online) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * A whole run: sign in, provision the devices and their secrets, connect them (the first one alone,
 * checking the console sees it), publish until the duration ends or the signal aborts, then send
 * every device's `offline` and disconnect. Prints a summary line every few seconds.
 */
export async function runSimulator(options: SimulatorOptions, hooks: RunHooks): Promise<RunResult> {
  const { log, signal } = hooks;
  const api = new ConsoleApi(options.api, options.tenant);
  await api.signIn(options.account, options.password);
  log(`signed in to ${options.api} as ${options.account} (tenant ${options.tenant})`);
  const provisioned = await provisionDevices(api, options.devices, log);
  if (options.credentialsFile) {
    const lines = provisioned.map((d) => `${options.tenant}/${d.deviceCode}:${d.secret}`);
    fs.writeFileSync(options.credentialsFile, `${lines.join('\n')}\n`, { mode: 0o600 });
    log(`wrote ${lines.length} user:secret lines to ${options.credentialsFile} (mosquitto_passwd -U it)`);
  }

  const stats = new SimStats();
  const config: RunnerConfig = {
    mqtt: options.mqtt,
    broker: options.broker,
    tenant: options.tenant,
    rate: options.rate,
    speed: options.speed,
    maxInflight: options.maxInflight,
    disconnectEvery: options.disconnectEvery,
    reconnectAfter: hooks.reconnectAfter ?? [3, 15],
  };
  const now = new Date();
  const settings = {
    faultProbability: options.faults,
    startTimeOfDay: now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds(),
  };
  const devices = provisioned.map((d) => {
    const rng = seededRng(seedOf(d.deviceCode, options.seed));
    return new SimulatedDevice(d, config, stats, createProcess(d.product.kind, rng, settings), rng);
  });

  const started = Date.now();
  // All at once: each waits for its `offline` to be acknowledged, behind what it has in flight.
  const stopAll = () => Promise.all(devices.map((d) => d.stop()));
  try {
    const [first, ...rest] = devices;
    if (!first) throw new SimulatorError('no devices to simulate');
    try {
      await first.connect();
    } catch (error) {
      throw brokerProblem(options, error as Error & { code?: unknown });
    }
    if (!(await consoleSeesOnline(api, first.device, 10_000)))
      throw new SimulatorError(
        `${first.device.deviceCode} connected to ${options.mqtt} and said online, but the console at ${options.api} ` +
          'does not see it: that broker is not the one the console reads.' +
          (options.broker === 'embedded'
            ? ` The console's embedded broker is not on ${new URL(options.mqtt).port || '1883'} — start the console ` +
              'with MQTT_PORT=1884 and pass --mqtt mqtt://127.0.0.1:1884 (or, if it runs with MQTT_URL, pass ' +
              '--broker external --mqtt <that broker>)'
            : ' Start the console with MQTT_URL pointing at this broker'),
      );
    log(`${first.device.deviceCode} is online in the console; connecting ${rest.length} more`);
    await inBatches(rest, 20, async (d) => {
      try {
        await d.connect();
      } catch (error) {
        throw brokerProblem(options, error as Error & { code?: unknown });
      }
    });
    for (const d of devices) d.start();
    log(
      `${devices.length} devices publishing ${options.rate}/s each to ${options.mqtt} ` +
        `(speed ×${options.speed}, faults ${options.faults}, ${options.duration ? `${options.duration} s` : 'Ctrl-C to stop'})`,
    );

    const every = (hooks.summaryEvery ?? 5) * 1000;
    const end = options.duration === undefined ? Infinity : started + options.duration * 1000;
    let mark = stats.snapshot();
    while (!signal?.aborted && Date.now() < end) {
      await sleep(Math.min(every, end - Date.now()), signal);
      if (Date.now() - mark.at >= every - 50 || Date.now() >= end) {
        log(stats.summary(mark, devices.length));
        mark = stats.snapshot();
      }
    }
  } finally {
    await stopAll();
  }
  const seconds = (Date.now() - started) / 1000;
  log(
    `stopped after ${seconds.toFixed(1)} s: ${stats.published} published, ${stats.acked} acknowledged ` +
      `(${Math.round(stats.acked / seconds)}/s), ${stats.cycles} cycles, ${stats.disconnects} disconnects, ${stats.errors} errors`,
  );
  return {
    devices: devices.map((d) => ({
      deviceCode: d.device.deviceCode,
      productCode: d.device.product.productCode,
      published: d.published,
      acked: d.acked,
      cycles: d.cycles,
      saidOffline: d.saidOffline,
    })),
    stats,
    seconds,
  };
}
