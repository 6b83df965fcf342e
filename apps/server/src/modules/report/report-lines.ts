import type { ReportData, ReportFigure } from '@mes/contracts';

/** One printed line of a report's table: a section's heading, a row, a subtotal or the total. */
export interface ReportLine {
  kind: 'section' | 'row' | 'subtotal' | 'total';
  cells: (string | number | null)[];
  /** A register's heading or subtotal: one text across the table where a format can span it. */
  span?: boolean;
}

/** A spanning line as one text (its cells joined), for a format that draws it as one cell. */
export const spanText = (line: ReportLine) => line.cells.filter((c) => c !== null && c !== '').join('   ');

const figureText = (f: ReportFigure) => `${f.label.zh} ${f.value === null ? '—' : f.value.toLocaleString('zh-CN')}`;

/** A line of text in the first cell, figures in the cells after it, the rest empty. */
function textLine(kind: ReportLine['kind'], n: number, first: string, figures: ReportFigure[] = []) {
  const cells: (string | null)[] = Array.from({ length: n }, () => null);
  cells[0] = first;
  figures.forEach((f, i) => {
    if (i + 1 < n) cells[i + 1] = figureText(f);
    else cells[n - 1] = [cells[n - 1], figureText(f)].filter(Boolean).join(' ');
  });
  return { kind, cells, span: true };
}

/**
 * The lines the PDF and the xlsx print, the same in both: a grouped report's rows then its totals;
 * a register's sections, each its heading (`2026-11 · 口腔科`), its rows and its subtotal
 * (`小计 | 记录数 12 | 器械包数 48`), then the total over all sections.
 */
export function reportLines(data: ReportData): ReportLine[] {
  const n = Math.max(1, data.columns.length);
  const rowLine = (row: ReportData['rows'][number]): ReportLine => ({
    kind: 'row',
    cells: data.columns.map((c) => row[c.key] ?? null),
  });
  if (!data.sections) {
    const lines = data.rows.map(rowLine);
    if (data.totals)
      lines.push({
        kind: 'total',
        cells: data.columns.map((c, i) => (i === 0 ? '合计' : (data.totals?.[c.key] ?? null))),
      });
    return lines;
  }
  const lines: ReportLine[] = [];
  let at = 0;
  for (const section of data.sections) {
    lines.push(textLine('section', n, section.label));
    for (const row of data.rows.slice(at, at + section.size)) lines.push(rowLine(row));
    at += section.size;
    lines.push(textLine('subtotal', n, '小计', section.subtotals));
  }
  if (data.summary) lines.push(textLine('total', n, '合计', data.summary));
  return lines;
}
