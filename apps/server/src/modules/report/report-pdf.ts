import fs from 'node:fs';
import { createRequire } from 'node:module';
import { generate } from '@pdfme/generator';
import { image, line, table as tableSchema, text } from '@pdfme/schemas';
import * as fontkit from 'fontkit';
import { PDFDocument, StandardFonts, type PDFPage } from '@pdfme/pdf-lib';
import { isBlankPdf, mm2pt, pt2mm, type Font, type Template } from '@pdfme/common';
import type { ReportData } from '@mes/contracts';
import { reportLines, spanText } from './report-lines';
import { drawTable, type TableLayout } from './report-pdf-table';

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

/**
 * The table's cells: the report's lines (report-lines.ts; a register's heading or subtotal as a
 * row of one cell, which the table draws across its width), or one row saying there is nothing.
 */
function tableBody(data: ReportData): string[][] {
  const body =
    data.rows.length || data.totals
      ? reportLines(data).map((line) => (line.span ? [spanText(line)] : line.cells.map(cell)))
      : [];
  if (!body.length) body.push(data.columns.map((_, i) => (i === 0 ? '无数据' : '')));
  return body;
}

/** The inputs of a layout: title and subtitle as text, the rows (totals last) as a table's JSON. */
export function layoutInputs(data: ReportData): Record<string, string> {
  return {
    [LAYOUT_FIELDS.title]: data.title,
    [LAYOUT_FIELDS.subtitle]: data.subtitle,
    [LAYOUT_FIELDS.rows]: JSON.stringify(tableBody(data)),
  };
}

/** A cell that is one code: printable ASCII without spaces. */
const CODE = /^[\x21-\x7e]{1,40}$/;

/** Rough width of a text in ems: a CJK character is one, other characters about half. */
const ems = (text: string) => {
  let n = 0;
  for (const ch of text) n += ch.charCodeAt(0) > 0x2e7f ? 1 : 0.55;
  return n;
};

/**
 * Column shares (%) from what the columns hold: the head's width or the width most of a sampled
 * column's cells need (95th percentile of the first 500 rows), between 3 and 24 ems. Equal
 * shares wrapped every timestamp onto two lines and left number columns half empty.
 */
export function columnShares(head: readonly string[], body: readonly string[][]): number[] {
  const sample = body.slice(0, 500);
  const needs = head.map((label, i) => {
    const widths = sample.map((row) => ems(row[i] ?? '')).sort((a, b) => a - b);
    const typical = widths[Math.floor((widths.length - 1) * 0.95)] ?? 0;
    // A code (batch, load or device number) cut across two lines misreads; in a column where
    // most rows are empty the percentile alone would leave it no room.
    // Capitals and digits are wider than ems' half an em: a code is measured at 0.68 each.
    const code = Math.max(0, ...sample.map((row) => (CODE.test(row[i] ?? '') ? (row[i] ?? '').length * 0.68 : 0)));
    return Math.min(24, Math.max(3, ems(label), typical, code)) + 1;
  });
  const sum = needs.reduce((a, b) => a + b, 0) || 1;
  return needs.map((n) => (100 * n) / sum);
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
  // Sized by the rows themselves: a register's section headings and subtotals sit in the first
  // cells and may wrap there, but must not take the width the batch or time columns need.
  const shares = columnShares(
    head,
    data.rows.length ? data.rows.map((row) => data.columns.map((c) => cell(row[c.key]))) : tableBody(data),
  );
  const schemas = layout.schemas.map((page) =>
    page.map((s) =>
      s.name === LAYOUT_FIELDS.rows && s.type === 'table'
        ? {
            ...s,
            head,
            headWidthPercentages: shares,
            // pdfme reads it without a default; a table saved without one would fail to print.
            columnStyles: (s as { columnStyles?: object }).columnStyles ?? {},
          }
        : s,
    ),
  );
  return { template: { ...layout, schemas } as Template, input };
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

/** The schema types the designer offers (designer.tsx): a layout may hold any of them. */
const PLUGINS = { text, table: tableSchema, line, image };

async function generatePdf(template: Template, input: Record<string, string>): Promise<PDFDocument> {
  const bytes = await generate({ template, inputs: [input], options: { font: fontOf() }, plugins: PLUGINS });
  return PDFDocument.load(bytes);
}

type Placed = Template['schemas'][number][number];

/** The page and schema of the table bound to the report's rows, if the layout has one. */
function boundTable(template: Template): { pageIndex: number; table: Placed } | undefined {
  for (const [pageIndex, page] of template.schemas.entries()) {
    const table = page.find((s) => s.name === LAYOUT_FIELDS.rows && s.type === 'table');
    if (table) return { pageIndex, table };
  }
  return undefined;
}

/** Page size and printable area (mm) of a blank base, or of the rendered page of a designed base PDF. */
function pageArea(template: Template, page: PDFPage) {
  const base = template.basePdf as { width?: number; height?: number; padding?: number[] };
  const width = base.width ?? pt2mm(page.getWidth());
  const height = base.height ?? pt2mm(page.getHeight());
  const [top = MARGIN, , bottom = MARGIN + 6] = Array.isArray(base.padding) ? base.padding : [];
  return { width, height, top, bottom: height - bottom };
}

/**
 * The report as PDF bytes, with `layout` (a pdfme template) or the plain layout. pdfme renders
 * the layout around the bound table (title, fields, logo, a designed base PDF); the table's rows
 * are drawn by report-pdf-table.ts from the table's position on, over as many pages as they
 * need; what was laid out under the table follows it; pages are numbered last.
 */
export async function renderReportPdf(
  data: ReportData,
  layout?: Template | null,
  onProgress?: (done: number) => void,
): Promise<Uint8Array> {
  const designed = layout ?? defaultLayout(data);
  const { template, input } = fillLayout(designed, data);
  const { [LAYOUT_FIELDS.rows]: rowsJson, ...fields } = input;
  const bound = boundTable(template);
  if (!bound || rowsJson === undefined) {
    const doc = await generatePdf(template, input);
    onProgress?.(1);
    return finish(doc, data);
  }
  const { pageIndex, table } = bound;
  const tableBottom = table.position.y + table.height;
  const page = template.schemas[pageIndex] ?? [];
  const under = page.filter((s) => s !== table && s.position.y >= tableBottom);
  const around = template.schemas.map((schemas, i) =>
    i === pageIndex ? schemas.filter((s) => s !== table && !under.includes(s)) : schemas,
  );
  const doc = await generatePdf({ ...template, schemas: around } as Template, fields);
  doc.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
  const font = await doc.embedFont(reportFontBytes(), { subset: true });
  const first = doc.getPage(pageIndex);
  const area = pageArea(template, first);
  // A designed base PDF (letterhead) is the background of the table's further pages too.
  const background = isBlankPdf(template.basePdf)
    ? undefined
    : await doc.embedPage((await generatePdf({ ...template, schemas: [[]] } as Template, {})).getPage(0));
  const pages = {
    ...area,
    newPage(after: PDFPage) {
      const added = doc.insertPage(doc.getPages().indexOf(after) + 1, [mm2pt(area.width), mm2pt(area.height)]);
      if (background) added.drawPage(background);
      return added;
    },
  };
  const body = JSON.parse(rowsJson) as string[][];
  const end = drawTable(doc, font, table as unknown as TableLayout, body, first, pages, (drawn) =>
    onProgress?.(drawn / Math.max(1, body.length)),
  );
  if (under.length) await placeUnder(doc, template, under, tableBottom, fields, end, pages);
  return finish(doc, data);
}

/** What was laid out under the table, rendered by pdfme and placed under where the table ended. */
async function placeUnder(
  doc: PDFDocument,
  template: Template,
  under: Placed[],
  tableBottom: number,
  fields: Record<string, string>,
  end: { page: PDFPage; y: number },
  pages: { width: number; height: number; top: number; bottom: number; newPage(after: PDFPage): PDFPage },
): Promise<void> {
  const moved = under.map((s) => ({ ...s, position: { ...s.position, y: s.position.y - tableBottom } }));
  const height = Math.max(...moved.map((s) => s.position.y + s.height));
  const block = await generatePdf(
    { basePdf: { width: pages.width, height: pages.height, padding: [0, 0, 0, 0] }, schemas: [moved] } as Template,
    fields,
  );
  const drawn = await doc.embedPage(block.getPage(0));
  let { page, y } = end;
  if (y + height > pages.bottom) {
    page = pages.newPage(page);
    y = pages.top;
  }
  page.drawPage(drawn, { x: 0, y: -mm2pt(y) });
}

async function finish(doc: PDFDocument, data: ReportData): Promise<Uint8Array> {
  await numberPages(doc);
  doc.setTitle(data.title);
  return doc.save();
}
