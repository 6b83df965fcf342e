import { Worker } from 'node:worker_threads';

/**
 * Worker threads for CPU-heavy work (report PDFs, xlsx workbooks), so the main thread only waits
 * and other requests are not held up. Loading a worker's libraries costs up to seconds, so a
 * thread that finished waits `idleMs` for the next job (at most `maxIdle` wait), then ends: a
 * server that does no such work holds no renderer in memory.
 *
 * The protocol: the worker answers each request with `{ progress }` messages, then one
 * `{ bytes }` or `{ error }`; meanwhile it may `{ ask }` a question, which the job's `answer`
 * answers with `{ answer }` (the export thread asks for a tenant's names as it meets the tenant, and
 * for a module's decoration of each page), and tell `{ rows }`, the number of rows it read itself.
 */
export interface ThreadPoolOptions {
  /**
   * The worker module beside the caller: `name.ts` when the caller runs from TypeScript sources
   * (tests, tsx), `name.js` beside the bundled `main.js` (build.mjs builds it as an entry point).
   */
  name: string;
  /** The caller's `import.meta.url`: where the worker file is looked for. */
  from: string;
  idleMs?: number;
  maxIdle?: number;
}

/** `code`: the failure's own (a database outage's SQLSTATE or socket code, which decides 503 over 500). */
type WorkerAnswer = {
  progress?: number;
  rows?: number;
  bytes?: Uint8Array;
  error?: string;
  code?: string;
  ask?: unknown;
};

/** What a job may give and hear besides its request and its bytes. */
export interface RenderOptions {
  onProgress?: (done: number) => void;
  /**
   * Messages posted after the request (a large input in parts: each part is copied to the thread
   * on this one, and the event loop turns between parts, so other requests are answered meanwhile).
   */
  more?: AsyncIterable<unknown>;
  /** Answers the thread's questions. */
  answer?: (question: unknown) => Promise<unknown>;
  /** Hears how many rows a thread that reads its own data read. */
  onRows?: (rows: number) => void;
}

const failureOf = (name: string, message: WorkerAnswer) =>
  Object.assign(new Error(message.error ?? `${name} failed`), message.code ? { code: message.code } : {});

/** One thread taken for one job: taken early, so it loads while the caller reads its data. */
export interface PoolThread<Request> {
  /** Posts `request`, then each message of `options.more`, and answers the bytes the thread makes. */
  render(request: Request, options?: RenderOptions): Promise<Uint8Array>;
  /** Hands the thread back (to wait for the next job) when no job is under way; else a no-op. */
  release(): void;
}

export interface ThreadPool<Request> {
  take(): PoolThread<Request>;
  /** One job on a thread of its own (taken and handed back here). */
  run(request: Request, options?: RenderOptions): Promise<Uint8Array>;
}

export function threadPool<Request>(options: ThreadPoolOptions): ThreadPool<Request> {
  const idleMs = options.idleMs ?? 60_000;
  const maxIdle = options.maxIdle ?? 2;
  const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

  const newWorker = (): Worker => {
    const fromSource = options.from.endsWith('.ts');
    const url = new URL(`./${options.name}.${fromSource ? 'ts' : 'js'}`, options.from);
    // From source, the worker registers tsx's loader itself before importing the TypeScript file.
    return fromSource
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
          { eval: true },
        )
      : new Worker(url);
  };

  const park = (worker: Worker): void => {
    if (idle.length >= maxIdle) return void worker.terminate();
    const entry = {
      worker,
      timer: setTimeout(() => {
        idle.splice(idle.indexOf(entry), 1);
        void worker.terminate();
      }, idleMs).unref(),
    };
    // A waiting thread does not keep the process alive.
    worker.unref();
    idle.push(entry);
  };

  const take = (): PoolThread<Request> => {
    const waiting = idle.pop();
    if (waiting) clearTimeout(waiting.timer);
    const worker = waiting?.worker ?? newWorker();
    worker.ref();
    // An error before any job (the thread could not load) is kept for the job to report.
    let broken: Error | undefined;
    const onEarlyError = (error: Error) => (broken = error);
    worker.once('error', onEarlyError);
    let state: 'ready' | 'busy' | 'done' = 'ready';
    return {
      render(request, { onProgress, more, answer, onRows }: RenderOptions = {}) {
        if (state !== 'ready') return Promise.reject(new Error('worker thread already used'));
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
          const onMessage = (message: WorkerAnswer) => {
            if (message.progress !== undefined) onProgress?.(message.progress);
            else if (message.rows !== undefined) onRows?.(message.rows);
            else if ('ask' in message) {
              // A question left unanswered would leave the job waiting for ever: its failure fails the job.
              const asked = answer?.(message.ask) ?? Promise.reject(new Error(`${options.name}: no answer`));
              void asked.then(
                (reply) => state === 'busy' && worker.postMessage({ answer: reply }),
                (error: unknown) => state === 'busy' && settle(() => reject(error as Error), false),
              );
            } else if (message.bytes) settle(() => resolve(message.bytes as Uint8Array), true);
            // A job that failed (a layout pdfme cannot print) leaves the thread fit for the next.
            else settle(() => reject(failureOf(options.name, message)), true);
          };
          const onError = (error: Error) => settle(() => reject(error), false);
          const onExit = (code: number) =>
            settle(() => reject(new Error(`${options.name} thread stopped (${code})`)), false);
          worker.on('message', onMessage).on('error', onError).on('exit', onExit);
          worker.postMessage(request);
          if (!more) return;
          void (async () => {
            for await (const part of more) {
              if (state !== 'busy') return;
              worker.postMessage(part);
            }
          })().catch((error: unknown) => {
            // The thread holds a half-fed job: it is not fit for the next.
            if (state === 'busy') settle(() => reject(error as Error), false);
          });
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
  };

  return { take, run: (request, options) => take().render(request, options) };
}
