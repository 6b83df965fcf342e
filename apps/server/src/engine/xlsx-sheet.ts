import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { displayNameOf, formatDateTime, namedValueText, type FieldDef, type Lang } from '@mes/contracts';
import type { Row } from './resource-hooks';
import type { ExportSource } from './export/export-reader';

/** What the export thread needs: plain data only (it crosses to the worker by structured clone). */
export interface XlsxSheetRequest {
  sheetName: string;
  lang: Lang;
  /** The listed fields: their key, header, width and kind (how a cell shows the value). */
  columns: { name: string; header: string; width: number; kind: FieldDef['kind'] }[];
  /** Dictionary and option labels by field, value to label. */
  labels: Record<string, Record<string, string>>;
  /** The `create_time` column's header, when the sheet has one. */
  created: string | undefined;
  /** Where the thread reads the rows itself (export-source.ts); without it, the rows follow in parts. */
  source?: ExportSource;
}

const YES_NO = { zh: ['是', '否'], en: ['Yes', 'No'] } as const;

/**
 * A cell as a reader expects it: a referenced row by its label, a boolean as yes / no, a JSON
 * value as its text. Decimals stay text, so the sheet shows every digit the database holds.
 */
function cellOf(kind: FieldDef['kind'], name: string, row: Row, lang: Lang): unknown {
  const value = row[name];
  switch (kind) {
    case 'reference':
      return row[displayNameOf(name)] ?? '';
    case 'boolean':
      return typeof value === 'boolean' ? YES_NO[lang][value ? 0 : 1] : '';
    case 'json':
      return value === null || value === undefined ? '' : JSON.stringify(value);
    default:
      return value instanceof Date ? formatDateTime(value) : value;
  }
}

/**
 * One export's workbook (xlsx-export.ts): written in the export thread (xlsx-export-worker.ts), or on
 * the main thread for a sheet so small that the hop to the thread costs more.
 *
 * The export being written: started by its request, fed by its parts of rows, ended by `{ end: true }`. */
export class SheetWriter {
  private readonly chunks: Buffer[] = [];
  private readonly ended: Promise<void>;
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;

  constructor(private readonly job: XlsxSheetRequest) {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.ended = new Promise<void>((resolve, reject) => stream.on('end', resolve).on('error', reject));
    // No shared strings or styles: rows are written out as they come, not kept.
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet(job.sheetName);
    this.sheet.columns = [
      ...job.columns.map((c) => ({ header: c.header, key: c.name, width: c.width })),
      ...(job.created ? [{ header: job.created, key: 'createTime', width: 20 }] : []),
    ];
  }

  add(rows: readonly Row[]): void {
    const job = this.job;
    for (const row of rows) {
      const out: Record<string, unknown> = {};
      for (const column of job.columns) {
        const value = row[column.name];
        const labels = job.labels[column.name];
        out[column.name] = labels
          ? (labels[String(value)] ?? value)
          : // A value a module's decorate named (an enumerated trigger value): `灭菌 (3)`.
            (namedValueText(row, column.name, job.lang) ?? cellOf(column.kind, column.name, row, job.lang));
      }
      if (job.created) out.createTime = row.createTime instanceof Date ? formatDateTime(row.createTime) : '';
      this.sheet.addRow(out).commit();
    }
  }

  async finish(): Promise<Uint8Array> {
    this.sheet.commit();
    await this.workbook.commit();
    await this.ended;
    const all = Buffer.concat(this.chunks);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  }
}
