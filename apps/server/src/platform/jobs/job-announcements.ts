import { sql } from 'drizzle-orm';
import { CHANGE_CHANNEL, jobOfTopic, jobTopic, type ChangeFeed } from '../cache/change-feed';
import type { JobQueue, JobQueueOptions } from './job-queue';
import type { SqlRunner } from './transaction-executor';

/**
 * Jobs due now are announced on the change channel so that a process with a free worker takes
 * them at once rather than at its next poll (docs/jobs.md): inside the enqueuing transaction as
 * a NOTIFY, which PostgreSQL delivers on commit, or at once through the feed.
 */
export function announceJobsOn(changes: ChangeFeed): NonNullable<JobQueueOptions['announce']> {
  return async (name: string, tx?: SqlRunner) => {
    if (tx) await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${jobTopic(name)})`);
    else await changes.publish(jobTopic(name));
  };
}

/** Wakes this process's worker of each announced queue. */
export function wakeJobsFrom(changes: ChangeFeed, queue: Pick<JobQueue, 'wake'>): void {
  changes.subscribe((topic) => {
    const name = jobOfTopic(topic);
    if (name) queue.wake(name);
  });
}
