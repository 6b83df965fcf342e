import { parentPort } from 'node:worker_threads';
import { renderReportPdf, renderRows } from './report-pdf';
import { renderReportXlsx } from './report-xlsx';
import { renderRowsInWorker, type PdfWorkerRequest } from './report-pdf-pool';

/**
 * The PDF worker thread (report-pdf-pool.ts): laying out and writing a long PDF is seconds of
 * CPU, which on the server's own thread would stall every request meanwhile. A `report` request
 * renders the whole report (asking helper threads for slices of it); a `rows` request is such a
 * slice; an `xlsx` request writes the workbook.
 */
parentPort?.on('message', (job: PdfWorkerRequest) => {
  const made: Promise<Uint8Array> =
    job.kind === 'rows'
      ? renderRows(job.template, job.rows).then((doc) => doc.save())
      : job.kind === 'xlsx'
        ? renderReportXlsx(job.data).then((b) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)))
        : renderReportPdf(job.data, job.layout, (done) => parentPort?.postMessage({ progress: done }), {
            count: job.threads,
            renderElsewhere: renderRowsInWorker,
          });
  made
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch((error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
});
