import { parentPort } from 'node:worker_threads';
import type { Template } from '@pdfme/common';
import type { ReportData, ReportFormat } from '@mes/contracts';
import { exportRows, type ExportSource } from '../../engine/export/export-reader';
import { failureMessage, threadQuestions } from '../../engine/export/thread-questions';
import type { Row } from '../../engine/resource-hooks';
import { renderReportPdf } from './report-pdf';
import { renderReportXlsx } from './report-xlsx';
import { renderLabelsPdf } from './label-pdf';
import { REPORT_TOO_LONG, type PdfWorkerRequest } from './report-pdf-pool';
import { shapeReport, type ReportShape } from './report-shape';

/**
 * The report thread (report-pdf-pool.ts): laying out and writing a long PDF is seconds of CPU,
 * and so are reading and shaping 50,000 rows, which on the server's own thread would stall every
 * request meanwhile. A `report` request renders the whole report; an `xlsx` request writes the
 * workbook; a `read` request reads the report's rows first (asking the main thread for a tenant's
 * names and a module's decoration, as an export does); a `labels` request prints pack labels.
 */
const { questions, answered } = threadQuestions(parentPort);

const rendered = (data: ReportData, format: ReportFormat, layout: Template | null): Promise<Uint8Array> =>
  format === 'xlsx'
    ? renderReportXlsx(data).then((b) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)))
    : renderReportPdf(data, layout, (done) => parentPort?.postMessage({ progress: done }));

async function readAndRender(source: ExportSource, shape: ReportShape, format: ReportFormat, layout: Template | null) {
  const rows: Row[] = [];
  for await (const page of exportRows(source, questions)) for (const row of page) rows.push(row);
  const shaped = shapeReport(shape, rows);
  if ('tooMany' in shaped) throw Object.assign(new Error(`over ${shaped.tooMany} rows`), { code: REPORT_TOO_LONG });
  parentPort?.postMessage({ rows: shaped.data.rows.length });
  return rendered(shaped.data, format, layout);
}

parentPort?.on('message', (job: PdfWorkerRequest | { answer: unknown }) => {
  if ('answer' in job) return answered(job.answer);
  const made: Promise<Uint8Array> =
    job.kind === 'xlsx'
      ? rendered(job.data, 'xlsx', null)
      : job.kind === 'labels'
        ? renderLabelsPdf(job.labels)
        : job.kind === 'read'
          ? readAndRender(job.source, job.shape, job.format, job.layout)
          : rendered(job.data, 'pdf', job.layout);
  made
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch((error: unknown) => parentPort?.postMessage(failureMessage(error)));
});
