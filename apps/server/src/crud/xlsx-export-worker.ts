import { PassThrough } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { displayNameOf, formatDateTime, namedValueText, type FieldDef, type Lang } from '@mes/contracts';
import type { XlsxSheetRequest } from './xlsx-export';
import type { Row } from './resource-routes';

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

/** The workbook of one export, written as a stream (no shared strings or styles: less memory). */
async function writeSheet(job: XlsxSheetRequest): Promise<Uint8Array> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => stream.on('end', resolve).on('error', reject));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(job.sheetName);
  sheet.columns = [
    ...job.columns.map((c) => ({ header: c.header, key: c.name, width: c.width })),
    ...(job.created ? [{ header: job.created, key: 'createTime', width: 20 }] : []),
  ];
  for (const row of job.rows) {
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
    sheet.addRow(out).commit();
  }
  sheet.commit();
  await workbook.commit();
  await ended;
  const all = Buffer.concat(chunks);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

/** The xlsx export thread (xlsx-export.ts): answers each sheet request with its bytes or an error. */
parentPort?.on('message', (job: XlsxSheetRequest) => {
  writeSheet(job)
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch((error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
});
