import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { NoticeLiveEvent } from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import { splitIds } from '../../platform/auth/request-auth';
import { notice } from '../../platform/db/schema';
import { defineJob } from '../../platform/jobs/job-definition';
import { numberedToSql, type SqlRunner } from '../../platform/jobs/transaction-executor';
import { notifyLive, type LiveQueryable } from '../../platform/live/notify-live';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

/** What a live event says of a notice (the browser re-reads its inbox; the title is for the toast). */
export interface NoticeFacts {
  tenantId: string;
  id: string;
  title: string;
  audienceType: number;
  audienceIds: string;
}

/**
 * The release of a notice saved with a future release time: the job starts at that time and
 * announces the notice, unless it was removed or moved since (its new time has a job of its own).
 */
export const noticeReleaseJob = defineJob({
  name: 'notice.release',
  payload: z.object({ tenantId: z.string(), noticeId: z.string(), releaseTime: z.string() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
});

/** A Drizzle transaction as `notifyLive` wants it: its NOTIFYs are sent when it commits. */
export const liveClient = (tx: SqlRunner): LiveQueryable => ({
  query: async (text, values) => tx.execute(numberedToSql(text, values)),
});

export function noticeEvent(facts: NoticeFacts, action: NoticeLiveEvent['action']): NoticeLiveEvent {
  return {
    type: 'notice',
    action,
    tenantId: facts.tenantId,
    noticeId: facts.id,
    // Events travel in NOTIFY payloads of under 8 kB; a title is at most 255 characters anyway.
    title: facts.title.slice(0, 255),
    audienceType: facts.audienceType,
    audienceIds: splitIds(facts.audienceIds),
    at: new Date().toISOString(),
  };
}

export function registerNoticeRelease(ctx: AppContext): void {
  oncePerContext(ctx, noticeReleaseJob.name, () => startNoticeRelease(ctx));
}

function startNoticeRelease(ctx: AppContext): void {
  ctx.jobs.register(noticeReleaseJob, async ({ tenantId, noticeId, releaseTime }) => {
    await ctx.db.transaction(async (tx) => {
      const [row] = await tenantScope(tx, tenantId)
        .select(notice, {
          id: notice.id,
          title: notice.title,
          releaseTime: notice.releaseTime,
          audienceType: notice.audienceType,
          audienceIds: notice.audienceIds,
        })
        .where(eq(notice.id, noticeId));
      const at = row?.releaseTime as Date | undefined;
      if (!row || !at || at.toISOString() !== releaseTime) return 'moved or removed';
      await notifyLive(liveClient(tx), [
        noticeEvent(
          {
            tenantId,
            id: String(row.id),
            title: String(row.title),
            audienceType: Number(row.audienceType),
            audienceIds: String(row.audienceIds),
          },
          'released',
        ),
      ]);
      return 'released';
    });
  });
}
