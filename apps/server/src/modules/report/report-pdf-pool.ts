import { Worker } from 'node:worker_threads';
import type { Template } from '@pdfme/common';
import type { ReportData } from '@mes/contracts';

/**
 * Runs a PDF render in a worker thread of its own, ended when the render is: reports are made
 * by the queue one at a time per process, so one thread per render is all the pool there is,
 * and the font (10 MB) is not held in memory between reports.
 *
 * The worker is `report-pdf-worker.js` beside the bundled `main.js` (build.mjs builds both);
 * from TypeScript sources (tests, tsx) it is the `.ts` file, loaded through tsx.
 */
export function renderPdfInWorker(
  data: ReportData,
  layout: Template | null,
  onProgress?: (done: number) => void,
): Promise<Uint8Array> {
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
    worker.on('message', (message: { progress?: number; bytes?: Uint8Array; error?: string }) => {
      if (message.progress !== undefined) onProgress?.(message.progress);
      else if (message.bytes) resolve(message.bytes);
      else reject(new Error(message.error ?? 'PDF worker failed'));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`PDF worker stopped (${code})`));
    });
    worker.postMessage({ data, layout });
  }).finally(() => void worker.terminate());
}
