import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Template } from '@pdfme/common';
import type { ReportData } from '@mes/contracts';

/**
 * Report renders (PDF, and xlsx) in worker threads of their own, ended when the render is: reports are made by the
 * queue one at a time per process, and the font (10 MB) is not held in memory between reports.
 * A long report is cut into slices rendered at once (`REPORT_PDF_THREADS`, default the cores up
 * to 2): the first thread renders the first slice, asks helper threads for the others and joins
 * them. The main thread only waits, so requests are not blocked.
 *
 * The worker is `report-pdf-worker.js` beside the bundled `main.js` (build.mjs builds both, and
 * bundles this file into each); from TypeScript sources (tests, tsx) it is the `.ts` file, loaded
 * through tsx.
 */
export const pdfThreadCount = () =>
  Math.max(1, Number(process.env.REPORT_PDF_THREADS) || Math.min(2, os.availableParallelism()));

export type PdfWorkerRequest =
  | { kind: 'report'; data: ReportData; layout: Template | null; threads: number }
  | { kind: 'rows'; template: Template; rows: string[][] }
  | { kind: 'xlsx'; data: ReportData };

type PdfWorkerAnswer = { progress?: number; bytes?: Uint8Array; error?: string };

function startWorker(request: PdfWorkerRequest, onProgress?: (done: number) => void): Promise<Uint8Array> {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './report-pdf-worker.ts' : './report-pdf-worker.js', import.meta.url);
  // From source, the worker registers tsx's loader itself before importing the TypeScript file.
  const worker = fromSource
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true },
      )
    : new Worker(url);
  return new Promise<Uint8Array>((resolve, reject) => {
    worker.on('message', (message: PdfWorkerAnswer) => {
      if (message.progress !== undefined) onProgress?.(message.progress);
      else if (message.bytes) resolve(message.bytes);
      else reject(new Error(message.error ?? 'PDF worker failed'));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`PDF worker stopped (${code})`));
    });
    worker.postMessage(request);
  }).finally(() => void worker.terminate());
}

/** The report as PDF, made in worker threads. */
export const renderPdfInWorker = (
  data: ReportData,
  layout: Template | null,
  onProgress?: (done: number) => void,
  threads = pdfThreadCount(),
): Promise<Uint8Array> => startWorker({ kind: 'report', data, layout, threads }, onProgress);

/**
 * The report as xlsx in a worker thread too: exceljs writing 10,000 rows is over a second of CPU,
 * which on the main thread multiplied the API's p99 while it ran (docs/reports.md).
 */
export const renderXlsxInWorker = (data: ReportData): Promise<Uint8Array> => startWorker({ kind: 'xlsx', data });

/** A slice of rows in the continuation layout, in a helper thread (asked by the first one). */
export const renderRowsInWorker = (template: Template, rows: string[][]): Promise<Uint8Array> =>
  startWorker({ kind: 'rows', template, rows });
