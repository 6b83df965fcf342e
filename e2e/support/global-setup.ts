import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePorts } from '../../apps/server/test/support/free-ports';

/** One server of the browser tests, as a spec file sees it (support/server.ts picks the file's own). */
export interface E2eServer {
  baseUrl: string;
  /** The server's JSON log (info and up): tests read what the development SMS provider "sent". */
  serverLog: string;
  /** Port of the server's embedded MQTT broker on 127.0.0.1 (devices publish there). */
  mqttPort: number;
  /** URL of the server's own database (its embedded PostgreSQL): specs seed and check rows there. */
  databaseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker: files running at the same time never share a server or a database. */
    servers: E2eServer[];
    adminPassword: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN_PASSWORD = 'E2e#Admin123';

/**
 * The browser tests' servers, one per worker (vitest.config.ts `E2E_WORKERS`, default 2): each a
 * real server with the built web app and an embedded PostgreSQL in a temp DATA_DIR of its own.
 */
export default async function setup(project: TestProject) {
  // WEB_DIST lets a run use a web build of its own (several builds can then run side by side).
  const webDist = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(root, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`No web build in ${webDist}: run npm run build -w @mes/web (npm test does it).`);
  }
  const count = Math.max(1, project.config.maxWorkers || 1);
  const ports = await freePorts(2 * count);
  const started = await Promise.all(
    Array.from({ length: count }, (_, i) => startServer(webDist, ports[2 * i] as number, ports[2 * i + 1] as number)),
  );
  project.provide(
    'servers',
    started.map((s) => s.server),
  );
  project.provide('adminPassword', ADMIN_PASSWORD);
  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}

/** One server on `port`, its embedded broker on `mqttPort` (the machine's Mosquitto holds 1883). */
async function startServer(
  webDist: string,
  port: number,
  mqttPort: number,
): Promise<{ server: E2eServer; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-e2e-'));
  fs.chmodSync(dir, 0o755);
  const { DATABASE_URL: _ignored, REDIS_URL: _alsoIgnored, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'apps/server'),
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      WEB_DIST: webDist,
      MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Everything goes to the log file; the console shows warnings, errors and plain text as before.
  const serverLog = path.join(dir, 'server.log');
  const logFile = fs.createWriteStream(serverLog);
  // The embedded PostgreSQL picks a free port at start and announces it in the log.
  let databasePort: string | undefined;
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    logFile.write(`${line}\n`);
    databasePort ??= /embedded PostgreSQL ready on 127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    const level = /^\{"level":(\d+)/.exec(line)?.[1];
    if (level === undefined || Number(level) >= 40) process.stdout.write(`${line}\n`);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const end = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start');
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error('the server did not become healthy');
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!databasePort) throw new Error('the server log did not name its embedded PostgreSQL port');
  // The server keeps the database password in its DATA_DIR (apps/server/src/platform/data-dir.ts).
  const password = fs.readFileSync(path.join(dir, 'data', 'pg-password'), 'utf8').trim();
  const databaseUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${databasePort}/mes`;
  const server: E2eServer = { baseUrl, serverLog, mqttPort, databaseUrl };
  const stop = async () => {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    await new Promise<void>((resolve) => logFile.end(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { server, stop };
}
