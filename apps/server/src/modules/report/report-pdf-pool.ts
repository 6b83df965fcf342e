import { Worker } from 'node:worker_threads';
import type { Template } from '@pdfme/common';
import type { PackLabel, ReportData } from '@mes/contracts';

/**
 * Report renders (PDF and xlsx) run in worker threads, so the main thread only waits and
 * requests are not blocked. Loading the renderers (pdfme, pdf-lib, fontkit, exceljs) costs a
 * worker 1–2.5 s of start, more than an xlsx of 10,000 rows takes to write, so:
 * - a report job takes its thread first and reads its data while the thread loads;
 * - a thread that finished waits `IDLE_MS` for the next render (at most `MAX_IDLE` wait), then
 *   ends, so a server that makes no reports holds no renderer or font in memory.
 *
 * The worker is `report-pdf-worker.js` beside the bundled `main.js` (build.mjs builds both);
 * from TypeScript sources (tests, tsx) it is the `.ts` file, loaded through tsx.
 */
export type PdfWorkerRequest =
  | { kind: 'report'; data: ReportData; layout: Template | null }
  | { kind: 'xlsx'; data: ReportData }
  | { kind: 'labels'; labels: PackLabel[] };

type PdfWorkerAnswer = { progress?: number; bytes?: Uint8Array; error?: string };

const IDLE_MS = 60_000;
const MAX_IDLE = 2;

function newWorker(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './report-pdf-worker.ts' : './report-pdf-worker.js', import.meta.url);
  // From source, the worker registers tsx's loader itself before importing the TypeScript file.
  return fromSource
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true },
      )
    : new Worker(url);
}

const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

function park(worker: Worker): void {
  if (idle.length >= MAX_IDLE) return void worker.terminate();
  const entry = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      void worker.terminate();
    }, IDLE_MS).unref(),
  };
  // A waiting thread does not keep the process alive.
  worker.unref();
  idle.push(entry);
}

/** A render thread for one report: taken before the data is read, so it loads meanwhile. */
export interface RenderThread {
  render(request: PdfWorkerRequest, onProgress?: (done: number) => void): Promise<Uint8Array>;
  /** Hands the thread back (to wait for the next report) when no render is under way; else a no-op. */
  release(): void;
}

export function takeRenderThread(): RenderThread {
  const waiting = idle.pop();
  if (waiting) clearTimeout(waiting.timer);
  const worker = waiting?.worker ?? newWorker();
  worker.ref();
  // An error before any render (the thread could not load) is kept for the render to report.
  let broken: Error | undefined;
  const onEarlyError = (error: Error) => (broken = error);
  worker.once('error', onEarlyError);
  let state: 'ready' | 'busy' | 'done' = 'ready';
  return {
    render(request, onProgress) {
      if (state !== 'ready') return Promise.reject(new Error('render thread already used'));
      state = 'busy';
      worker.off('error', onEarlyError);
      if (broken) return Promise.reject(broken);
      return new Promise<Uint8Array>((resolve, reject) => {
        const settle = (outcome: () => void, healthy: boolean) => {
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
          state = 'done';
          if (healthy) park(worker);
          else void worker.terminate();
          outcome();
        };
        const onMessage = (message: PdfWorkerAnswer) => {
          if (message.progress !== undefined) onProgress?.(message.progress);
          else if (message.bytes) settle(() => resolve(message.bytes as Uint8Array), true);
          // A render that failed (a layout pdfme cannot print) leaves the thread fit for the next.
          else settle(() => reject(new Error(message.error ?? 'report render failed')), true);
        };
        const onError = (error: Error) => settle(() => reject(error), false);
        const onExit = (code: number) =>
          settle(() => reject(new Error(`report render thread stopped (${code})`)), false);
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
        worker.postMessage(request);
      });
    },
    release() {
      if (state !== 'ready') return;
      state = 'done';
      worker.off('error', onEarlyError);
      if (broken) void worker.terminate();
      else park(worker);
    },
  };
}

/** One render on a thread of its own (taken and handed back here). */
function renderOnce(request: PdfWorkerRequest, onProgress?: (done: number) => void): Promise<Uint8Array> {
  return takeRenderThread().render(request, onProgress);
}

/** The report as PDF, made in a worker thread. */
export const renderPdfInWorker = (
  data: ReportData,
  layout: Template | null,
  onProgress?: (done: number) => void,
): Promise<Uint8Array> => renderOnce({ kind: 'report', data, layout }, onProgress);

/** Pack labels as one PDF (label-pdf.ts), made in a worker thread: loading pdfme and the font is the cost. */
export const renderLabelsInWorker = (labels: PackLabel[]): Promise<Uint8Array> =>
  renderOnce({ kind: 'labels', labels });
