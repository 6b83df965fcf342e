import type pg from 'pg';
import type { ConsoleApi } from '../../../apps/server/test/faults/support/console-api';
import { sleep } from '../../../apps/server/test/faults/support/ports';

export interface WriteTally {
  sent: number;
  /** Answered 200 and success: the caller was told it is stored. */
  acknowledged: number;
  /** Refused or cut off (a 502 of the balancer for a request the killed process held, a timeout). */
  failed: number;
  /** Acknowledged and not stored. */
  lost: number;
  /** Extra rows of one write (the table has no unique code, so nothing but the path prevents it). */
  duplicated: number;
  /** Failed writes that were stored after all (the caller cannot know; a retry would double them). */
  failedButStored: number;
}

/**
 * An administrator saving records (岗位, `post/submit`) one after another through the balancer,
 * each with a code of its own, until stopped; then counted against the table like the devices'
 * messages: what was acknowledged must be stored exactly once.
 */
export class HttpWriter {
  private readonly outcomes = new Map<string, boolean>();
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly api: ConsoleApi,
    private readonly prefix: string,
  ) {}

  start(pauseMs = 100): void {
    this.running = true;
    this.loop = (async () => {
      for (let i = 0; this.running; i += 1) {
        const code = `${this.prefix}${i}`;
        let ok = false;
        try {
          const reply = await this.api.call('POST', '/blade-system/post/submit', {
            category: 1,
            postCode: code,
            postName: `集群写入 ${i}`,
          });
          ok = reply.status === 200 && reply.body.success;
        } catch {
          ok = false;
        }
        this.outcomes.set(code, ok);
        await sleep(pauseMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  async tally(pool: pg.Pool): Promise<WriteTally> {
    const { rows } = await pool.query<{ post_code: string; times: string }>(
      `select post_code, count(*)::text as times from blade_post where post_code like $1 group by 1`,
      [`${this.prefix}%`],
    );
    const stored = new Map(rows.map((r) => [r.post_code, Number(r.times)]));
    const t: WriteTally = { sent: 0, acknowledged: 0, failed: 0, lost: 0, duplicated: 0, failedButStored: 0 };
    for (const [code, ok] of this.outcomes) {
      const times = stored.get(code) ?? 0;
      t.sent += 1;
      t.duplicated += Math.max(0, times - 1);
      if (ok) {
        t.acknowledged += 1;
        if (times === 0) t.lost += 1;
      } else {
        t.failed += 1;
        if (times > 0) t.failedButStored += 1;
      }
    }
    return t;
  }
}
