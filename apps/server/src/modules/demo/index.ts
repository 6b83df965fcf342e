import path from 'node:path';
import { DEMO_ADMIN_ACCOUNT, DEMO_PASSWORD_FILE } from '@mes/contracts';
import { announce } from '../../seed/announce';
import { simulatorCommand } from './demo-data';

export { registerDemoRoutes, startDemoSeeding, saveDemoPassword, readOffer, writeOffer } from './demo-routes';
export { seedDemoTenant, DEMO_STEPS, type DemoResult, type DemoStep } from './demo-steps';

export { DEMO_SIMULATED_DEVICES, simulatorCommand } from './demo-data';

/** Shown once, by whoever generated the password; the file in DATA_DIR keeps it. */
export function announceDemoPassword(tenantId: string, password: string, dataDir: string): void {
  announce([
    'MES Console created the demo tenant administrator:',
    `  tenant ${tenantId}   account ${DEMO_ADMIN_ACCOUNT}   password ${password}`,
    `(also saved, readable only by you, in ${path.join(dataDir, DEMO_PASSWORD_FILE)})`,
    `Keep it moving: ${simulatorCommand(tenantId)}`,
  ]);
}
