import fs from 'node:fs';
import { createRequire } from 'node:module';
import { generate } from '@pdfme/generator';
import { line, table as tableSchema, text } from '@pdfme/schemas';
import { PDFDocument, StandardFonts } from '@pdfme/pdf-lib';
import type { Font, Template } from '@pdfme/common';
import type { ReportData } from '@mes/contracts';

/**
 * PDF reports (docs/reports.md): pdfme's generator fills a template — the one a tenant designed
 * with pdfme's Designer, or the plain layout below — with a report's data. Chinese needs a font
 * that has it: Noto Sans SC (SIL OFL) from the npm package `@expo-google-fonts/noto-sans-sc`,
 * never a system font, subset into each PDF (only the glyphs used are embedded).
 */

export const REPORT_FONT_NAME = 'NotoSansSC';
const require = createRequire(import.meta.url);
export const REPORT_FONT_FILE = require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf');

let fontBytes: Uint8Array<ArrayBuffer> | undefined;
/** The font file's bytes (10 MB), read once per process (or worker). */
export function reportFontBytes(): Uint8Array<ArrayBuffer> {
  fontBytes ??= new Uint8Array(fs.readFileSync(REPORT_FONT_FILE));
  return fontBytes;
}

export const fontOf = (): Font => ({
  [REPORT_FONT_NAME]: { data: reportFontBytes(), fallback: true, subset: true },
});

/** The fields a layout may bind (schema names): the same names the plain layout uses. */
export const LAYOUT_FIELDS = { title: 'title', subtitle: 'subtitle', rows: 'rows', totals: 'totals' } as const;

const A4 = { width: 210, height: 297 };
const MARGIN = 12;

/**
 * The plain layout: title, the period read, the table (pdfme splits it over as many pages as it
 * needs, repeating its header) and a page number on every page.
 */
export function defaultLayout(data: Pick<ReportData, 'columns'>, landscape = data.columns.length > 6): Template {
  const page = landscape ? { width: A4.height, height: A4.width } : A4;
  const inner = page.width - 2 * MARGIN;
  const n = Math.max(1, data.columns.length);
  const font = { fontName: REPORT_FONT_NAME };
  return {
    basePdf: {
      width: page.width,
      height: page.height,
      padding: [MARGIN, MARGIN, MARGIN + 6, MARGIN],
    },
    schemas: [
      [
        {
          name: LAYOUT_FIELDS.title,
          type: 'text',
          position: { x: MARGIN, y: MARGIN },
          width: inner,
          height: 10,
          fontSize: 16,
          alignment: 'center',
          ...font,
        },
        {
          name: LAYOUT_FIELDS.subtitle,
          type: 'text',
          position: { x: MARGIN, y: MARGIN + 11 },
          width: inner,
          height: 6,
          fontSize: 9,
          alignment: 'center',
          ...font,
        },
        {
          name: LAYOUT_FIELDS.rows,
          type: 'table',
          position: { x: MARGIN, y: MARGIN + 20 },
          width: inner,
          height: 20,
          showHead: true,
          head: data.columns.map((c) => c.label.zh),
          headWidthPercentages: data.columns.map(() => 100 / n),
          tableStyles: { borderWidth: 0.2, borderColor: '#333333' },
          headStyles: {
            ...font,
            fontSize: 8,
            characterSpacing: 0,
            alignment: 'center',
            verticalAlignment: 'middle',
            lineHeight: 1,
            fontColor: '#000000',
            borderColor: '#333333',
            backgroundColor: '#e8e8e8',
            borderWidth: { top: 0.2, right: 0.2, bottom: 0.2, left: 0.2 },
            padding: { top: 1.5, right: 1, bottom: 1.5, left: 1 },
          },
          bodyStyles: {
            ...font,
            fontSize: 7.5,
            characterSpacing: 0,
            alignment: 'left',
            verticalAlignment: 'middle',
            lineHeight: 1,
            fontColor: '#000000',
            borderColor: '#888888',
            backgroundColor: '',
            // A rule under each row, no fill: four borders and a shade per cell were a quarter of
            // the render's CPU (docs/reports.md); the table keeps its outer frame.
            alternateBackgroundColor: '',
            borderWidth: { top: 0, right: 0, bottom: 0.1, left: 0 },
            padding: { top: 1, right: 1, bottom: 1, left: 1 },
          },
          columnStyles: {
            alignment: Object.fromEntries(
              data.columns.map((c, i) => [i, c.type === 'int' || c.type === 'number' ? 'right' : 'left']),
            ),
          },
        },
      ],
    ],
  } as unknown as Template;
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The inputs of a layout: title and subtitle as text, the rows (totals last) as a table's JSON. */
export function layoutInputs(data: ReportData): Record<string, string> {
  const body = data.rows.map((row) => data.columns.map((c) => cell(row[c.key])));
  if (data.totals) body.push(data.columns.map((c, i) => (i === 0 ? '合计' : cell(data.totals?.[c.key]))));
  if (!body.length) body.push(data.columns.map((_, i) => (i === 0 ? '无数据' : '')));
  return {
    [LAYOUT_FIELDS.title]: data.title,
    [LAYOUT_FIELDS.subtitle]: data.subtitle,
    [LAYOUT_FIELDS.rows]: JSON.stringify(body),
  };
}

/**
 * A designed layout gets the inputs its schemas name; other schemas keep their designed content
 * (static text, a logo). A table bound to the report (named `rows`) takes the report's columns
 * as they are, so a template designed on a sample still fits when the data changes shape.
 */
function fillLayout(layout: Template, data: ReportData): { template: Template; input: Record<string, string> } {
  const all = layoutInputs(data);
  const names = new Set(layout.schemas.flat().map((s) => s.name));
  const input = Object.fromEntries(Object.entries(all).filter(([k]) => names.has(k)));
  const head = data.columns.map((c) => c.label.zh);
  const schemas = layout.schemas.map((page) =>
    page.map((s) =>
      s.name === LAYOUT_FIELDS.rows && s.type === 'table'
        ? {
            ...s,
            head,
            headWidthPercentages: head.map(() => 100 / Math.max(1, head.length)),
            // pdfme reads it without a default; a table saved without one would fail to print.
            columnStyles: (s as { columnStyles?: object }).columnStyles ?? {},
          }
        : s,
    ),
  );
  return { template: { ...layout, schemas } as Template, input };
}

/**
 * Rows per generator call. pdfme lays a long table out in time that grows faster than its
 * length (10,000 rows in one call: 26 s; in calls of 500: a few seconds), so a long report is
 * made in parts — the first with the whole layout, the others with the table alone at the top
 * of the page — joined into one document, then numbered.
 */
export const PDF_ROWS_PER_PART = 500;

/** The layout of the parts after the first: only the bound table, moved to the top margin. */
function continuation(template: Template): Template {
  const base = template.basePdf as { padding?: number[] };
  const top = Array.isArray(base.padding) ? (base.padding[0] ?? MARGIN) : MARGIN;
  const first = template.schemas[0] ?? [];
  const rows = first.filter((s) => s.name === LAYOUT_FIELDS.rows);
  return { ...template, schemas: [rows.map((s) => ({ ...s, position: { ...s.position, y: top } }))] } as Template;
}

/** `n / total` at the foot of every page (digits only, so a standard PDF font does). */
async function numberPages(doc: PDFDocument): Promise<void> {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  pages.forEach((page, i) => {
    const label = `${i + 1} / ${pages.length}`;
    const size = 8;
    const { width } = page.getSize();
    page.drawText(label, { x: (width - font.widthOfTextAtSize(label, size)) / 2, y: 14, size, font });
  });
}

/** Renders rows (already cells) in parts of `PDF_ROWS_PER_PART`: the rows of one thread. */
export async function renderRows(
  template: Template,
  body: string[][],
  onPart?: (rows: number) => void,
): Promise<PDFDocument> {
  const out = await PDFDocument.create();
  for (let start = 0; start === 0 || start < body.length; start += PDF_ROWS_PER_PART) {
    const part = body.slice(start, start + PDF_ROWS_PER_PART);
    const bytes = await generate({
      template,
      inputs: [{ [LAYOUT_FIELDS.rows]: JSON.stringify(part) }],
      options: { font: fontOf() },
      plugins: { text, table: tableSchema, line },
    });
    const doc = await PDFDocument.load(bytes);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
    onPart?.(part.length);
  }
  return out;
}

/**
 * Renders the rows after the first thread's in other threads (`renderElsewhere`: the continuation
 * layout and a contiguous slice of rows, answering that slice's PDF bytes). Profiled (docs/reports.md),
 * a row costs about 2 ms of CPU however the parts are cut — text measured and shaped per cell —
 * so a long report is cut into as many slices as there are threads, in order.
 */
export interface PdfThreads {
  count: number;
  renderElsewhere(template: Template, rows: string[][]): Promise<Uint8Array>;
}

/** The report as PDF bytes, with `layout` (a pdfme template) or the plain layout. */
export async function renderReportPdf(
  data: ReportData,
  layout?: Template | null,
  onProgress?: (done: number) => void,
  threads?: PdfThreads,
): Promise<Uint8Array> {
  const designed = layout ?? defaultLayout(data);
  const { template, input } = fillLayout(designed, data);
  const table = input[LAYOUT_FIELDS.rows];
  const body = table ? (JSON.parse(table) as string[][]) : [];
  const rest = continuation(template);
  // Slices of whole parts, one per thread; the first thread's slice carries the whole layout.
  const parts = Math.max(1, Math.ceil(body.length / PDF_ROWS_PER_PART));
  const count = Math.max(1, Math.min(threads?.count ?? 1, parts));
  const perSlice = Math.ceil(parts / count) * PDF_ROWS_PER_PART;
  let done = 0;
  const progress = (rows: number) => {
    done += rows;
    onProgress?.(Math.min(1, done / Math.max(1, body.length)));
  };
  const others = Array.from({ length: count - 1 }, (_, i) => {
    const rows = body.slice((i + 1) * perSlice, (i + 2) * perSlice);
    return rows.length && threads
      ? threads.renderElsewhere(rest, rows).then((bytes) => (progress(rows.length), bytes))
      : undefined;
  });
  // The first part with the whole layout (title, fields, logo), the rest of the slice as continuation.
  const out = await PDFDocument.create();
  const firstRows = table ? body.slice(0, perSlice) : [];
  const firstBytes = await generate({
    template,
    inputs: [
      { ...input, ...(table ? { [LAYOUT_FIELDS.rows]: JSON.stringify(firstRows.slice(0, PDF_ROWS_PER_PART)) } : {}) },
    ],
    options: { font: fontOf() },
    plugins: { text, table: tableSchema, line },
  });
  const firstDoc = await PDFDocument.load(firstBytes);
  for (const page of await out.copyPages(firstDoc, firstDoc.getPageIndices())) out.addPage(page);
  progress(Math.min(PDF_ROWS_PER_PART, firstRows.length));
  const sliceDocs: PDFDocument[] = [];
  if (firstRows.length > PDF_ROWS_PER_PART)
    sliceDocs.push(await renderRows(rest, firstRows.slice(PDF_ROWS_PER_PART), progress));
  for (const other of others) if (other) sliceDocs.push(await PDFDocument.load(await other));
  for (const doc of sliceDocs) for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  await numberPages(out);
  out.setTitle(data.title);
  return out.save();
}
