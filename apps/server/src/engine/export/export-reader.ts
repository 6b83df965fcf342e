import pg from 'pg';
import { maskCredential } from '@mes/contracts';
import { cursorPages } from '../../platform/db/cursor-pages';
import { dayText } from '../../platform/db/day-text';
import type { Row } from '../resource-hooks';
import { nameRows, tenantsOf, type NamesPlan, type SharedNames, type TenantNames } from '../row-names';
import { decorationInput, mergeDecoration, type DecorationInput, type DecorationPatch } from './export-decoration';

/**
 * What the export thread needs to read and name an export's rows itself (export-source.ts builds
 * it): plain data, it crosses to the thread by structured clone.
 */
export interface ExportSource {
  /** The connection string of the server's own pool. */
  connection: string;
  /**
   * The export's query as the resource service rendered it (tenant, data scope, filters, order,
   * cap), with its parameters: the thread runs it as given, it adds no condition of its own.
   */
  text: string;
  params: unknown[];
  /** Each selected column's key, in the select list's order. */
  keys: string[];
  /** How a column's pg value becomes the row's value: as it is, or a calendar day's text. */
  days: number[];
  /** Reference labels: a row with no referenced row shows '' (`ResourceService.decorate`). */
  blankWhenMissing: string[];
  /** Credentials shown in part only. */
  masked: string[];
  /** The display names, and the maps every tenant shares; a tenant's own maps are asked for. */
  names: { plan: NamesPlan; shared: SharedNames } | undefined;
  /**
   * The fields the module's `decorate` reads (`ResourceHooks.decorateReads`), when it has one:
   * each page's are sent to the main thread, which answers what the hook adds.
   */
  decorateReads: string[] | undefined;
}

/** A question of the export thread, as it crosses to the main thread. */
export type ExportQuestion = { tenantNames: string } | { decorate: DecorationInput };

/** What the export thread asks the main thread: a tenant's names, or a page's decoration. */
export interface ExportQuestions {
  tenantNames(tenantId: string): Promise<TenantNames>;
  decorate(input: DecorationInput): Promise<DecorationPatch>;
}

/** The export thread's connections' `application_name`. */
export const EXPORT_APPLICATION = 'mes-export-thread';

/** Rows read through the cursor this many at a time. */
const PAGE_ROWS = 1_000;

function rowsOf(raw: unknown[][], source: ExportSource): Row[] {
  const { keys, days } = source;
  const rows: Row[] = new Array(raw.length);
  for (let r = 0; r < raw.length; r++) {
    const values = raw[r] as unknown[];
    const row: Row = {};
    for (let i = 0; i < keys.length; i++) row[keys[i] as string] = values[i] ?? null;
    for (const i of days) {
      const value = values[i];
      if (value !== null && value !== undefined) row[keys[i] as string] = dayText(value as string | Date);
    }
    rows[r] = row;
  }
  return rows;
}

/**
 * The export's rows as `ResourceService.decorate` shows them (reference labels, masked
 * credentials, display names), read on a connection of the thread's own: no row is parsed,
 * named or copied on the main thread. `tenantNames` asks the main thread for a tenant's maps
 * (its business dictionaries, its tree rows' names), once per tenant the rows hold; `decorate`
 * asks it for a module's decoration of each page, given the fields the hook reads.
 */
export async function* exportRows(source: ExportSource, ask: ExportQuestions): AsyncGenerator<Row[]> {
  // Named, so an operator sees in pg_stat_activity which connections are exports' reads.
  const client = new pg.Client({ connectionString: source.connection, application_name: EXPORT_APPLICATION });
  // A dropped connection fails the pending query; without a listener it would end the thread.
  client.on('error', () => undefined);
  await client.connect();
  const perTenant = new Map<string, TenantNames>();
  try {
    for await (const raw of cursorPages(client, source.text, source.params, PAGE_ROWS, () => undefined)) {
      const rows = rowsOf(raw, source);
      for (const row of rows) {
        for (const key of source.blankWhenMissing) if (row[key] === null) row[key] = '';
        for (const key of source.masked) if (typeof row[key] === 'string') row[key] = maskCredential(row[key]);
      }
      if (source.names) {
        for (const tenant of tenantsOf(rows))
          if (!perTenant.has(tenant)) perTenant.set(tenant, await ask.tenantNames(tenant));
        nameRows(source.names.plan, source.names.shared, perTenant, rows);
      }
      // After the names, as `ResourceService.decorate` runs the hook on named rows.
      if (source.decorateReads) mergeDecoration(rows, await ask.decorate(decorationInput(rows, source.decorateReads)));
      yield rows;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
