import type { Db } from '../../platform/db/database';
import { readParam } from '../../platform/db/params';

/** The platform parameter naming the ports a datasource may use (PostgreSQL's by default). */
export const ALLOWED_PORTS_PARAM = 'datasource.allowedPorts';
export const DEFAULT_ALLOWED_PORTS = '5432-5439';

export type PortRanges = readonly (readonly [from: number, to: number])[];

const isPort = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535;

/** `5432-5439, 6432` → [[5432, 5439], [6432, 6432]]; undefined when any entry is malformed. */
export function parsePortRanges(text: string): PortRanges | undefined {
  const entries = text.split(/[\s,;，]+/).filter(Boolean);
  const ranges: [number, number][] = [];
  for (const entry of entries) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(entry);
    if (!m) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (!isPort(from) || !isPort(to) || to < from) return undefined;
    ranges.push([from, to]);
  }
  return ranges.length ? ranges : undefined;
}

/**
 * The ports the platform allows. A malformed parameter falls back to the default rather than
 * opening every port: the parameter can only widen what the administrator spelled out.
 */
export async function allowedPorts(db: Db): Promise<{ ranges: PortRanges; text: string }> {
  const text = (await readParam(db, ALLOWED_PORTS_PARAM))?.trim() ?? '';
  const ranges = parsePortRanges(text);
  if (ranges) return { ranges, text };
  return { ranges: parsePortRanges(DEFAULT_ALLOWED_PORTS) as PortRanges, text: DEFAULT_ALLOWED_PORTS };
}

export const portAllowed = (ranges: PortRanges, port: number) =>
  ranges.some(([from, to]) => port >= from && port <= to);

/** Where a password would go: the server (host and port) and the account it signs in as. */
export interface PasswordDestination {
  host: string;
  port: number;
  user: string;
}

export const sameDestination = (a: PasswordDestination, b: PasswordDestination) =>
  a.host === b.host && a.port === b.port && a.user === b.user;
