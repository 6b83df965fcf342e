import { slots } from '../../platform/workers/slots';

/**
 * Threads that read their rows themselves (exports, reports), each on a database connection of
 * its own, at once in this process; the next waits for one to finish. Bounds the connections they
 * add beside the pool (docs/deploy.md: up to 3 per process), whatever the number of tenants.
 */
const THREAD_READERS = 3;

export const threadReaders = slots(THREAD_READERS);
