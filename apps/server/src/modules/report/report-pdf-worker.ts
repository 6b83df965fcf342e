import { parentPort } from 'node:worker_threads';
import { renderReportPdf } from './report-pdf';
import { renderReportXlsx } from './report-xlsx';
import { renderLabelsPdf } from './label-pdf';
import type { PdfWorkerRequest } from './report-pdf-pool';

/**
 * The PDF worker thread (report-pdf-pool.ts): laying out and writing a long PDF is seconds of
 * CPU, which on the server's own thread would stall every request meanwhile. A `report` request
 * renders the whole report; an `xlsx` request writes the workbook; a `labels` request prints pack labels.
 */
parentPort?.on('message', (job: PdfWorkerRequest) => {
  const made: Promise<Uint8Array> =
    job.kind === 'xlsx'
      ? renderReportXlsx(job.data).then((b) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)))
      : job.kind === 'labels'
        ? renderLabelsPdf(job.labels)
        : renderReportPdf(job.data, job.layout, (done) => parentPort?.postMessage({ progress: done }));
  made
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch((error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
});
