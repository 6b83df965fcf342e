import { and, eq, ne } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { formatDateTime, isAggregate, isListed, type Lang, type ResourceDef } from '@mes/contracts';
import type { AppContext } from '../app-context';
import type { AuthContext } from '../platform/auth/request-auth';
import { dict, dictBiz } from '../platform/db/schema';
import { tenantRows } from '../platform/tenancy/tenant-scope';
import { threadPool } from '../platform/workers/thread-pool';
import { SheetWriter, type XlsxSheetRequest } from './xlsx-sheet';
import type { Row } from './resource-hooks';
import type { ThreadSource } from './export/export-source';
import { threadReaders } from './export/thread-readers';
import type { ExportQuestion } from './export/export-reader';

async function optionLabels(ctx: AppContext, def: ResourceDef, auth: AuthContext, lang: Lang) {
  const labels = new Map<string, Map<string, string>>();
  for (const [name, field] of Object.entries(def.fields)) {
    const source = field.options;
    if (!source) continue;
    let pairs: [string, string][] = [];
    if ('items' in source) pairs = source.items.map((i) => [String(i.value), i.label[lang]]);
    else if ('dict' in source) {
      const rows = await ctx.db
        .select({ k: dict.dictKey, v: dict.dictValue })
        .from(dict)
        .where(and(eq(dict.code, source.dict), ne(dict.parentId, '0'), eq(dict.isDeleted, 0)));
      pairs = rows.map((r) => [r.k, r.v]);
    } else if ('dictBiz' in source) {
      const rows = await ctx.db
        .select({ k: dictBiz.dictKey, v: dictBiz.dictValue })
        .from(dictBiz)
        .where(tenantRows(dictBiz, auth.tenantId, eq(dictBiz.code, source.dictBiz), ne(dictBiz.parentId, '0')));
      pairs = rows.map((r) => [r.k, r.v]);
    }
    if (pairs.length) labels.set(name, new Map(pairs));
  }
  return labels;
}

/** Up to this many rows, the sheet is written on the main thread (a few milliseconds). */
const IN_PROCESS_ROWS = 500;

/**
 * Rows counted, then read in pages as they are written (`ResourceService.exportPages`); with a
 * `source`, the export thread reads and names them itself and `pages` is left unread.
 */
export interface RowPages {
  count: number;
  pages: AsyncIterable<Row[]>;
  source?: ThreadSource;
}

/** Rows already read are handed on in parts of this many. */
const ROWS_PER_PART = 1_000;

async function* partsOf(rows: readonly Row[]): AsyncGenerator<Row[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_PART) yield rows.slice(i, i + ROWS_PER_PART);
}

/**
 * The messages after the request: each page as it is read, then `{ end: true }`. Reading a page
 * waits on the database, and the event loop turns between pages, so other requests are answered
 * while tens of thousands of rows go to the thread.
 */
async function* rowParts(pages: AsyncIterable<Row[]>): AsyncGenerator<{ rows: Row[] } | { end: true }> {
  for await (const rows of pages) {
    yield { rows };
    await new Promise((resolve) => setImmediate(resolve));
  }
  yield { end: true };
}

const exportPool = threadPool<XlsxSheetRequest>({ name: 'xlsx-export-worker', from: import.meta.url });

/**
 * Sends the rows as an xlsx sheet with the list's columns, dictionary values as labels, written by
 * a worker thread (xlsx-export-worker.ts): tens of thousands of rows are seconds of CPU that would
 * otherwise hold up every other request. With a `source` the thread reads the rows too; else they
 * are read here, page by page, and each page goes to the thread as it comes.
 */
export async function sendXlsx(
  reply: FastifyReply,
  ctx: AppContext,
  def: ResourceDef,
  given: readonly Row[] | RowPages,
  auth: AuthContext,
  acceptLanguage: string | undefined,
  /** Awaited once the workbook is made, before it is sent (the export's fair-share slot given back). */
  beforeSend?: () => Promise<void>,
) {
  const rows: RowPages = 'pages' in given ? given : { count: given.length, pages: partsOf(given) };
  const lang: Lang = acceptLanguage?.toLowerCase().startsWith('en') ? 'en' : 'zh';
  // A small sheet is written here: the hop to the thread would cost more than the sheet.
  const thread = rows.count > IN_PROCESS_ROWS ? exportPool.take() : undefined;
  let labels: Map<string, Map<string, string>>;
  try {
    labels = await optionLabels(ctx, def, auth, lang);
  } catch (error) {
    thread?.release();
    throw error;
  }
  // The audit column `create_time`, unless the definition lists a field of that name itself; an
  // aggregate has only the columns it declares.
  const created = !isAggregate(def) && !('createTime' in def.fields);
  const request: XlsxSheetRequest = {
    sheetName: def.title[lang].slice(0, 31),
    lang,
    columns: Object.entries(def.fields)
      .filter(([, f]) => isListed(f))
      .map(([name, f]) => ({ name, header: f.label[lang], width: Math.max(12, (f.width ?? 120) / 8), kind: f.kind })),
    labels: Object.fromEntries([...labels].map(([name, map]) => [name, Object.fromEntries(map)])),
    created: created ? (lang === 'zh' ? '创建时间' : 'Created') : undefined,
  };
  let bytes: Uint8Array;
  if (thread && rows.source) {
    // Reading the rows (pg's parsing), naming them and copying them to the thread were most of
    // the main thread's work per row (docs/operations.md "Fair shares"): the thread does all three.
    const { source, answer } = rows.source;
    const giveBack = await threadReaders.take();
    try {
      bytes = await thread.render({ ...request, source }, { answer: (question) => answer(question as ExportQuestion) });
    } finally {
      giveBack();
    }
  } else if (thread) {
    // Copying tens of thousands of rows to the thread at once would hold this thread for up to a
    // second: they go in parts instead, each as soon as it is read.
    bytes = await thread.render(request, { more: rowParts(rows.pages) });
  } else {
    const writer = new SheetWriter(request);
    for await (const page of rows.pages) writer.add(page);
    bytes = await writer.finish();
  }
  await beforeSend?.();
  const fileName = `${def.code}-${formatDateTime(new Date()).replace(/[^0-9]/g, '')}.xlsx`;
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
