import type { Template } from '@pdfme/common';
import type { PackLabel, ReportData, ReportFormat } from '@mes/contracts';
import type { ExportSource } from '../../engine/export/export-reader';
import { threadPool, type PoolThread } from '../../platform/workers/thread-pool';
import type { ReportShape } from './report-shape';

/**
 * Report renders (PDF and xlsx) run in worker threads, so the main thread only waits and
 * requests are not blocked. Loading the renderers (pdfme, pdf-lib, fontkit, exceljs) costs a
 * worker 1–2.5 s of start, more than an xlsx of 10,000 rows takes to write, so:
 * - a report job takes its thread first and reads its data while the thread loads;
 * - a thread that finished waits a minute for the next render, then ends (platform/workers/thread-pool.ts),
 *   so a server that makes no reports holds no renderer or font in memory.
 *
 * The worker is `report-pdf-worker.js` beside the bundled `main.js` (build.mjs builds both);
 * from TypeScript sources (tests, tsx) it is the `.ts` file, loaded through tsx.
 */
export type PdfWorkerRequest =
  | { kind: 'report'; data: ReportData; layout: Template | null }
  | { kind: 'xlsx'; data: ReportData }
  /**
   * A report whose rows the thread reads, names and shapes itself (a list or register of up to
   * 50,000 rows): the main thread only answers its questions (a tenant's names, a module's decoration).
   */
  | { kind: 'read'; source: ExportSource; shape: ReportShape; format: ReportFormat; layout: Template | null }
  | { kind: 'labels'; labels: PackLabel[] };

/** The code of a read report's failure for having more rows than a report may (the main thread words it). */
export const REPORT_TOO_LONG = 'report-too-long';

const pool = threadPool<PdfWorkerRequest>({ name: 'report-pdf-worker', from: import.meta.url });

/** A render thread for one report: taken before the data is read, so it loads meanwhile. */
export type RenderThread = PoolThread<PdfWorkerRequest>;

export const takeRenderThread = (): RenderThread => pool.take();

/** One render on a thread of its own (taken and handed back here). */
const renderOnce = (request: PdfWorkerRequest, onProgress?: (done: number) => void): Promise<Uint8Array> =>
  pool.run(request, { onProgress });

/** The report as PDF, made in a worker thread. */
export const renderPdfInWorker = (
  data: ReportData,
  layout: Template | null,
  onProgress?: (done: number) => void,
): Promise<Uint8Array> => renderOnce({ kind: 'report', data, layout }, onProgress);

/** Pack labels as one PDF (label-pdf.ts), made in a worker thread: loading pdfme and the font is the cost. */
export const renderLabelsInWorker = (labels: PackLabel[]): Promise<Uint8Array> =>
  renderOnce({ kind: 'labels', labels });
