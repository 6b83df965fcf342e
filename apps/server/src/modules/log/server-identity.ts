import os from 'node:os';

import type { ServerIdentity } from '../../platform/audit/log-writers';

export type { ServerIdentity };

export const SERVER_SERVICE_ID = 'mes-server';

/** The first external IPv4 address of this machine, else loopback. */
function serverIp(): string {
  for (const addresses of Object.values(os.networkInterfaces())) {
    const external = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
    if (external) return external.address;
  }
  return '127.0.0.1';
}

export function serverIdentity(env: NodeJS.ProcessEnv = process.env): ServerIdentity {
  return {
    serviceId: SERVER_SERVICE_ID,
    serverHost: os.hostname().slice(0, 255),
    serverIp: serverIp(),
    env: (env.NODE_ENV || 'production').slice(0, 32),
  };
}
