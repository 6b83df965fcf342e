import { mm2pt, pt2mm } from '@pdfme/common';
import type { PDFDocument, PDFFont, PDFPage } from '@pdfme/pdf-lib';

/**
 * The report's bound table drawn straight into the PDF's content streams (docs/reports.md,
 * Performance). pdfme's table plugin shapes every cell with fontkit and builds layout objects
 * per cell — ≈ 4.6 ms of CPU a row of 11 columns, so 10,000 rows took 28 s on two idle cores.
 * Here each distinct character is encoded and measured once, cells are wrapped with those
 * widths, and a page's operators are written as one string: the styles are those the designer
 * saved on the pdfme table schema (head, body, columns, frame), the look the preview showed.
 * Characters are placed one glyph each, without OpenType shaping — right for the CJK, digits
 * and Latin a report holds (no ligatures or kerning in table cells).
 */

type Box = { top: number; right: number; bottom: number; left: number };

export interface CellStyle {
  fontSize: number;
  lineHeight: number;
  alignment: string;
  verticalAlignment: string;
  fontColor: string;
  backgroundColor: string;
  borderColor: string;
  borderWidth: Box;
  padding: Box;
}

/** The parts of pdfme's table schema (`@pdfme/schemas` tables) the report table honours, in mm. */
export interface TableLayout {
  position: { x: number; y: number };
  width: number;
  showHead?: boolean;
  repeatHead?: boolean;
  head: string[];
  headWidthPercentages: number[];
  tableStyles?: { borderColor?: string; borderWidth?: number };
  headStyles: CellStyle;
  bodyStyles: CellStyle & { alternateBackgroundColor?: string };
  columnStyles?: { alignment?: Record<number, string> };
}

/** Where the table may run: every page's size, and the top and bottom of its printable area (mm). */
export interface TablePages {
  width: number;
  height: number;
  top: number;
  bottom: number;
  /** A new page for the rows that did not fit, placed after `after`. */
  newPage(after: PDFPage): PDFPage;
}

const ZERO: Box = { top: 0, right: 0, bottom: 0, left: 0 };
const num = (n: number) => (Math.round(n * 100) / 100).toString();

/** `#rrggbb` (or `#rgb`) as PDF's 0–1 components; undefined for no colour. */
export function pdfColour(hex: string | undefined): string | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex?.trim() ?? '');
  if (!m?.[1]) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => num(parseInt(h.slice(i, i + 2), 16) / 255)).join(' ');
}

/** Glyph codes and widths per character, asked of the font once per character. */
export class GlyphCache {
  private readonly hex = new Map<string, string>();
  private readonly width = new Map<string, number>();
  constructor(private readonly font: PDFFont) {}

  /** The string's glyph codes as the hex of a `Tj` operand. */
  encode(text: string): string {
    let out = '';
    for (const ch of text) {
      let code = this.hex.get(ch);
      if (code === undefined) {
        // encodeText also adds the glyph to the font's subset.
        code = this.font.encodeText(ch).toString().slice(1, -1);
        this.hex.set(ch, code);
      }
      out += code;
    }
    return out;
  }

  /** Width in points at `size`. */
  widthOf(text: string, size: number): number {
    let units = 0;
    for (const ch of text) {
      let w = this.width.get(ch);
      if (w === undefined) {
        w = this.font.widthOfTextAtSize(ch, 1000);
        this.width.set(ch, w);
      }
      units += w;
    }
    return (units * size) / 1000;
  }
}

/** Splits a cell's text into lines no wider than `max` points: at spaces when it can, else anywhere. */
export function wrapText(text: string, max: number, size: number, glyphs: GlyphCache): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const ch of paragraph) {
      const next = line + ch;
      if (line && glyphs.widthOf(next, size) > max) {
        const space = line.lastIndexOf(' ');
        if (space > 0 && ch !== ' ') {
          lines.push(line.slice(0, space));
          line = line.slice(space + 1) + ch;
        } else {
          lines.push(line);
          line = ch === ' ' ? '' : ch;
        }
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

interface Metrics {
  ascent: number;
  height: number;
}

/** One page's content: operators collected as text, written as one stream. */
class PageInk {
  private readonly parts: string[] = ['q'];
  constructor(
    readonly page: PDFPage,
    private readonly fontKey: string,
    private readonly pageHeight: number,
  ) {}

  /** `y` measured from the top of the page in points, as the layout is. */
  text(hex: string, x: number, yTop: number, size: number, colour: string) {
    this.parts.push(
      `BT /${this.fontKey} ${num(size)} Tf ${colour} rg 1 0 0 1 ${num(x)} ${num(this.pageHeight - yTop)} Tm <${hex}> Tj ET`,
    );
  }
  line(x1: number, y1: number, x2: number, y2: number, width: number, colour: string) {
    if (width <= 0) return;
    const h = this.pageHeight;
    this.parts.push(`${num(width)} w ${colour} RG ${num(x1)} ${num(h - y1)} m ${num(x2)} ${num(h - y2)} l S`);
  }
  fill(x: number, yTop: number, w: number, h: number, colour: string) {
    this.parts.push(`${colour} rg ${num(x)} ${num(this.pageHeight - yTop - h)} ${num(w)} ${num(h)} re f`);
  }
  write(doc: PDFDocument) {
    this.parts.push('Q');
    this.page.node.addContentStream(doc.context.register(doc.context.flateStream(this.parts.join('\n'))));
  }
}

interface Column {
  x: number;
  width: number;
}

/**
 * Draws `rows` as the layout's table from `first` at the table's position, continuing on new
 * pages at the top margin (head repeated unless `repeatHead` is false) with the outer frame on
 * each page. Answers the last page and the y (mm from its top) under the table.
 */
export function drawTable(
  doc: PDFDocument,
  font: PDFFont,
  table: TableLayout,
  rows: readonly string[][],
  first: PDFPage,
  pages: TablePages,
  onRows?: (drawn: number) => void,
): { page: PDFPage; y: number } {
  const glyphs = new GlyphCache(font);
  const pageHeight = mm2pt(pages.height);
  const metrics = (size: number): Metrics => ({
    ascent: font.heightAtSize(size, { descender: false }),
    height: font.heightAtSize(size),
  });
  const x0 = mm2pt(table.position.x);
  const width = mm2pt(table.width);
  const total = table.headWidthPercentages.reduce((a, b) => a + b, 0) || 1;
  const n = Math.max(table.head.length, table.headWidthPercentages.length, 1);
  const columns: Column[] = [];
  let cx = x0;
  for (let i = 0; i < n; i++) {
    const w = (width * (table.headWidthPercentages[i] ?? 100 / n)) / total;
    columns.push({ x: cx, width: w });
    cx += w;
  }
  const frame = { width: table.tableStyles?.borderWidth ?? 0, colour: pdfColour(table.tableStyles?.borderColor) };
  const fontKeyOf = new Map<PDFPage, string>();
  const inkFor = (page: PDFPage) => {
    let key = fontKeyOf.get(page);
    if (!key) {
      key = page.node.newFontDictionary('ReportTable', font.ref).asString().slice(1);
      fontKeyOf.set(page, key);
    }
    return new PageInk(page, key, pageHeight);
  };

  // A row of one cell in a table of more (a register's section heading or subtotal) spans it.
  const whole: Column[] = [{ x: x0, width }];
  /** A row's cells wrapped, and its height in points. */
  const layOut = (cells: readonly string[], style: CellStyle) => {
    const pad = { ...ZERO, ...style.padding };
    const cols = cells.length === 1 && columns.length > 1 ? whole : columns;
    const lines = cols.map((c, i) =>
      wrapText(cells[i] ?? '', c.width - mm2pt(pad.left + pad.right), style.fontSize, glyphs),
    );
    const m = metrics(style.fontSize);
    // As pdfme's text: a line is the font's height (ascent to descent) times the line height.
    const lineGap = m.height * (style.lineHeight || 1);
    const most = Math.max(1, ...lines.map((l) => l.length));
    return { cols, lines, height: most * lineGap + mm2pt(pad.top + pad.bottom), pad, lineGap, m };
  };

  const drawRow = (
    ink: PageInk,
    y: number,
    row: ReturnType<typeof layOut>,
    style: CellStyle,
    fillColour: string | undefined,
    alignmentOf: (i: number) => string,
  ) => {
    const text = pdfColour(style.fontColor) ?? '0 0 0';
    const border = pdfColour(style.borderColor) ?? '0 0 0';
    const bw = { ...ZERO, ...style.borderWidth };
    row.cols.forEach((c, i) => {
      if (fillColour) ink.fill(c.x, y, c.width, row.height, fillColour);
      const cellLines = row.lines[i] ?? [];
      const blockHeight = cellLines.length * row.lineGap;
      const inner = row.height - mm2pt(row.pad.top + row.pad.bottom);
      const offset =
        style.verticalAlignment === 'top'
          ? 0
          : style.verticalAlignment === 'bottom'
            ? inner - blockHeight
            : (inner - blockHeight) / 2;
      // The line's glyphs sit on a baseline an ascent below the line box's top, centred in its gap.
      let baseline = y + mm2pt(row.pad.top) + offset + (row.lineGap - row.m.height) / 2 + row.m.ascent;
      const align = alignmentOf(i);
      for (const line of cellLines) {
        if (line) {
          const w = glyphs.widthOf(line, style.fontSize);
          const left = c.x + mm2pt(row.pad.left);
          const room = c.width - mm2pt(row.pad.left + row.pad.right);
          const x = align === 'right' ? left + room - w : align === 'center' ? left + (room - w) / 2 : left;
          ink.text(glyphs.encode(line), x, baseline, style.fontSize, text);
        }
        baseline += row.lineGap;
      }
      ink.line(c.x, y, c.x + c.width, y, mm2pt(bw.top), border);
      ink.line(c.x, y + row.height, c.x + c.width, y + row.height, mm2pt(bw.bottom), border);
      ink.line(c.x, y, c.x, y + row.height, mm2pt(bw.left), border);
      ink.line(c.x + c.width, y, c.x + c.width, y + row.height, mm2pt(bw.right), border);
    });
  };

  const head = table.showHead === false ? undefined : layOut(table.head, table.headStyles);
  const headFill = pdfColour(table.headStyles.backgroundColor);
  const bodyFill = pdfColour(table.bodyStyles.backgroundColor);
  const altFill = pdfColour(table.bodyStyles.alternateBackgroundColor);
  const bodyAlign = (i: number) => table.columnStyles?.alignment?.[i] ?? table.bodyStyles.alignment;
  const bottom = mm2pt(pages.bottom);

  let page = first;
  let ink = inkFor(page);
  let y = mm2pt(table.position.y);
  let frameTop = y;
  const closeFrame = () => {
    if (frame.colour && frame.width > 0) {
      const w = mm2pt(frame.width);
      ink.line(x0, frameTop, x0 + width, frameTop, w, frame.colour);
      ink.line(x0, y, x0 + width, y, w, frame.colour);
      ink.line(x0, frameTop, x0, y, w, frame.colour);
      ink.line(x0 + width, frameTop, x0 + width, y, w, frame.colour);
    }
    ink.write(doc);
  };
  const drawHead = () => {
    if (!head) return;
    drawRow(ink, y, head, table.headStyles, headFill, () => table.headStyles.alignment);
    y += head.height;
  };
  drawHead();
  rows.forEach((cells, index) => {
    const row = layOut(cells, table.bodyStyles);
    if (y + row.height > bottom && y > frameTop + (head?.height ?? 0) + 0.01) {
      closeFrame();
      page = pages.newPage(page);
      ink = inkFor(page);
      y = frameTop = mm2pt(pages.top);
      if (table.repeatHead !== false) drawHead();
    }
    drawRow(ink, y, row, table.bodyStyles, index % 2 === 1 && altFill ? altFill : bodyFill, bodyAlign);
    y += row.height;
    if (onRows && (index + 1) % 500 === 0) onRows(index + 1);
  });
  closeFrame();
  onRows?.(rows.length);
  return { page, y: pt2mm(y) };
}
