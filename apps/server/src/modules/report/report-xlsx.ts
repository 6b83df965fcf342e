import ExcelJS from 'exceljs';
import type { ReportData } from '@mes/contracts';
import { reportLines } from './report-lines';

const NUMBER_FORMAT = { int: '#,##0', number: '#,##0.00' } as const;

/**
 * A report as an xlsx workbook (exceljs): the title and period above a bold, shaded header row
 * that stays in view (frozen) while scrolling, number formats on measure columns, and the lines
 * the PDF prints too (report-lines.ts): rows and totals, or a register's sections and subtotals.
 */
export async function renderReportXlsx(data: ReportData): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'MES Console';
  const sheet = book.addWorksheet(data.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Report');
  const n = Math.max(1, data.columns.length);
  sheet.mergeCells(1, 1, 1, n);
  sheet.getCell(1, 1).value = data.title;
  sheet.getCell(1, 1).font = { bold: true, size: 14 };
  sheet.getCell(1, 1).alignment = { horizontal: 'center' };
  sheet.mergeCells(2, 1, 2, n);
  sheet.getCell(2, 1).value = data.subtitle;
  sheet.getCell(2, 1).alignment = { horizontal: 'center' };
  sheet.getCell(2, 1).font = { color: { argb: 'FF666666' }, size: 9 };
  const header = sheet.getRow(3);
  data.columns.forEach((c, i) => {
    const cell = header.getCell(i + 1);
    cell.value = c.label.zh;
    cell.font = { bold: true };
    cell.alignment = { horizontal: 'center', vertical: 'middle' };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8E8E8' } };
    cell.border = { bottom: { style: 'thin' } };
  });
  sheet.views = [{ state: 'frozen', ySplit: 3 }];
  data.columns.forEach((c, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = Math.min(40, Math.max(10, c.label.zh.length * 2 + 4, c.type === 'date' ? 20 : 0));
    if (c.type === 'int' || c.type === 'number') column.numFmt = NUMBER_FORMAT[c.type];
  });
  for (const line of reportLines(data)) {
    const row = sheet.addRow(line.cells);
    if (line.kind === 'section') {
      // A section's heading spans the table, shaded, as a register's page of one month and department.
      sheet.mergeCells(row.number, 1, row.number, n);
      row.font = { bold: true };
      row.getCell(1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF3F3F3' } };
    } else if (line.kind !== 'row') {
      row.font = { bold: true };
      row.eachCell((cell) => (cell.border = { top: { style: 'thin' } }));
    }
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
