import path from 'node:path';
import { writePrivateFile } from '../platform/data-dir';

/** A framed message on stdout: what a person must read once (a generated password). */
export function announce(lines: readonly string[]): void {
  const rule = '================================================================';
  process.stdout.write(['', rule, ...lines.map((l) => ` ${l}`), rule, ''].join('\n') + '\n');
}

/** Shown once, at the start that created the account; also kept owner-readable in DATA_DIR. */
export function announceAdminPassword(dataDir: string, password: string): void {
  const file = path.join(dataDir, 'admin-password.txt');
  writePrivateFile(file, `tenant 000000, account admin, password ${password}\n`);
  announce([
    'MES Console created the administrator account:',
    `  tenant 000000   account admin   password ${password}`,
    `(also saved, readable only by you, in ${file})`,
  ]);
}
