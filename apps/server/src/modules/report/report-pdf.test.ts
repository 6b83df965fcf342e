import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Template } from '@pdfme/common';
import type { ReportData } from '@mes/contracts';
import { defaultLayout, renderReportPdf } from './report-pdf';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Each page's text as a reader (pdf.js) extracts it, glyphs mapped back to characters. */
async function pagesText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
  }
  await pdf.destroy();
  return pages;
}

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const COLUMNS = ['批次', '设备', '温度', '备注'];
function report(
  rows: number,
  note = (i: number) => (i % 50 === 7 ? `第${i}批 复核 note ${i} wraps onto more lines here` : ''),
) {
  return {
    title: '消毒记录月报',
    subtitle: '2026-01-01 ~ 2026-01-31',
    columns: COLUMNS.map((label, i) => ({
      key: `c${i}`,
      label: { zh: label, en: label },
      type: i === 2 ? 'number' : 'string',
    })),
    rows: Array.from({ length: rows }, (_, i) => ({
      c0: `B${100000 + i}`,
      c1: `灭菌器 ${i % 7}`,
      c2: 121 + (i % 3),
      c3: note(i),
    })),
    totals: { c2: 999 },
  } as unknown as ReportData;
}

describe('report PDF', () => {
  it('prints every row once, in order, under a head repeated on each page, with numbered pages', async () => {
    const data = report(1200);
    const pages = await pagesText(await renderReportPdf(data));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages[0]).toContain('消毒记录月报');
    expect(pages[0]).toContain('2026-01-01 ~ 2026-01-31');
    const all = pages.join('\n');
    const batches = [...all.matchAll(/B1\d{5}/g)].map((m) => m[0]);
    expect(batches).toEqual(data.rows.map((r) => r.c0));
    pages.forEach((text, i) => {
      expect(text).toContain('设备');
      expect(text).toContain(`${i + 1} / ${pages.length}`);
    });
    // The totals row closes the table on the last page.
    expect(pages.at(-1)).toMatch(/合计[\s\S]*999/);
  });

  it('wraps a long cell instead of cutting it', async () => {
    const pages = await pagesText(await renderReportPdf(report(60)));
    const text = pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('第57批 复核');
    expect(text).toContain('wraps onto more lines here');
  });

  it('places what was designed under the table after its last row, once', async () => {
    const data = report(700, () => '');
    const layout = defaultLayout(data) as Template & { schemas: Record<string, unknown>[][] };
    const table = layout.schemas[0]?.find((s) => s.name === 'rows') as { position: { y: number }; height: number };
    layout.schemas[0]?.push({
      name: 'signature',
      type: 'text',
      content: '审核人：__________',
      readOnly: true,
      position: { x: 200, y: table.position.y + table.height + 4 },
      width: 70,
      height: 8,
      fontSize: 10,
      fontName: 'NotoSansSC',
    });
    const pages = await pagesText(await renderReportPdf(data, layout as Template));
    const withSignature = pages.map((p, i) => (p.includes('审核人') ? i : -1)).filter((i) => i >= 0);
    expect(withSignature).toEqual([pages.length - 1]);
    const last = pages.at(-1) ?? '';
    expect(last.indexOf('审核人')).toBeGreaterThan(last.indexOf('B100699'));
  });

  it('prints a designed logo (an image schema, as the designer offers)', async () => {
    const data = report(30);
    const layout = defaultLayout(data) as Template & { schemas: Record<string, unknown>[][] };
    layout.schemas[0]?.push({
      name: 'logo',
      type: 'image',
      content: `data:image/png;base64,${PIXEL}`,
      readOnly: true,
      position: { x: 12, y: 10 },
      width: 20,
      height: 10,
    });
    const pdf = await getDocument({
      data: (await renderReportPdf(data, layout as Template)).slice(),
      standardFontDataUrl,
    }).promise;
    const operators = await (await pdf.getPage(1)).getOperatorList();
    expect(operators.fnArray).toContain(OPS.paintImageXObject);
    await pdf.destroy();
  });

  it('prints an empty report as one page that says so', async () => {
    const pages = await pagesText(await renderReportPdf({ ...report(0), totals: undefined }));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('无数据');
  });
});
