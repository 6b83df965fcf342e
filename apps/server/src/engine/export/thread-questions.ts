import type { MessagePort } from 'node:worker_threads';
import type { ExportQuestion, ExportQuestions } from './export-reader';

/**
 * A reading thread's side of its questions to the main thread (a tenant's names, a page's
 * decoration): each is posted as `{ ask }` and waits for the main thread's `{ answer }`, which the
 * thread's message handler hands to `answered`. One question at a time, as the rows are read.
 */
export function threadQuestions(port: MessagePort | null): {
  questions: ExportQuestions;
  answered(answer: unknown): void;
} {
  let waiting: ((answer: unknown) => void) | undefined;
  const asked = <T>(question: ExportQuestion) =>
    new Promise<T>((resolve) => {
      waiting = resolve as (answer: unknown) => void;
      port?.postMessage({ ask: question });
    });
  return {
    questions: {
      tenantNames: (tenantId) => asked({ tenantNames: tenantId }),
      decorate: (input) => asked({ decorate: input }),
    },
    answered(answer) {
      const resolve = waiting;
      waiting = undefined;
      resolve?.(answer);
    },
  };
}

/** A failure as a reading thread reports it: its message, and its code when it has one (a database outage's, for a 503). */
export function failureMessage(error: unknown): { error: string; code: string | undefined } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    error: error instanceof Error ? error.message : String(error),
    code: typeof code === 'string' ? code : undefined,
  };
}
