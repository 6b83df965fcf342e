export { freePort } from '../../support/free-ports';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it holds; rejects with `what` after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms: number, what: string, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await sleep(every);
  }
}

/** FAULTS_QUICK=1: the short variant of every case (a database outage of 5 s instead of 30 s, fewer rounds). */
export const QUICK = process.env.FAULTS_QUICK === '1';
