import { parentPort } from 'node:worker_threads';

/**
 * thread-pool.test.ts's worker: asks its question, then fails as the export thread fails when the
 * database drops its connection (a message and a code).
 */
parentPort?.on('message', (part: { ask?: string; answer?: string }) => {
  if (part.ask) parentPort?.postMessage({ ask: part.ask });
  else parentPort?.postMessage({ error: `refused after ${part.answer}`, code: 'ECONNREFUSED' });
});
