import { inject } from 'vitest';
import type { E2eServer } from './global-setup';

/**
 * The server of this spec file: global-setup starts one per worker, and vitest numbers its
 * workers 1..maxWorkers (VITEST_POOL_ID), so two files running at the same time never share a
 * server, a database or a sign-in limit.
 */
export function thisServer(): E2eServer {
  const servers = inject('servers');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[(worker - 1) % servers.length];
  if (!server) throw new Error('global-setup started no server');
  return server;
}
