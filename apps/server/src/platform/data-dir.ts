import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Creates the data directory if needed; it holds secrets, so only its owner may list it. */
export function ensureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * Returns the secret kept in `DATA_DIR/<name>`, generating it on first use. The file is
 * owner-readable only. Written with `wx` so two processes racing cannot both create one.
 */
export function readOrCreateSecret(dataDir: string, name: string, bytes = 48): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const secret = randomBytes(bytes).toString('base64url');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw e;
  }
}

/** Writes a file only its owner can read, replacing any earlier one. */
export function writePrivateFile(file: string, content: string): void {
  fs.writeFileSync(file, content, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims the data directory for this server process with a pid file, so that two servers never
 * run on one directory (and so never on one embedded database). A pid file naming a dead
 * process, or one that is not a Node server, is stale and taken over.
 */
export function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.pid');
  const previous = readPid(file);
  if (previous !== undefined && previous !== process.pid && isProcessAlive(previous) && isNode(previous)) {
    throw new Error(
      `Another MES Console server (pid ${previous}) is using ${dataDir}. Stop it or choose another DATA_DIR.`,
    );
  }
  fs.writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
  };
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isNode(pid: number): boolean {
  try {
    return /node/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    // No /proc (not Linux): trust the liveness check alone.
    return true;
  }
}
