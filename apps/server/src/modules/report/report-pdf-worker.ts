import { parentPort } from 'node:worker_threads';
import type { Template } from '@pdfme/common';
import type { ReportData } from '@mes/contracts';
import { renderReportPdf } from './report-pdf';

/**
 * The PDF worker thread (report-pdf-pool.ts): laying out and writing a long PDF is seconds of
 * CPU, which on the server's own thread would stall every request meanwhile.
 */
parentPort?.on('message', (job: { data: ReportData; layout: Template | null }) => {
  renderReportPdf(job.data, job.layout, (done) => parentPort?.postMessage({ progress: done }))
    .then((bytes) => parentPort?.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]))
    .catch((error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
});
