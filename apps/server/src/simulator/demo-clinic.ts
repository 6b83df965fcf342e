import { DEFAULT_TENANT_ID } from '@mes/contracts';
import { DEPT_IDS } from '../seed/seed-data';
import type { ConsoleApi } from './console-api';

export const DEMO_BASE_NAME = '演示消毒中心';
export const DEMO_CLINIC_NAME = '演示口腔诊所';

interface DeptRow {
  id: string;
  deptName: string;
}

const DEPT = '/api/blade-system/dept';

/**
 * The clinic the simulated devices stand in (a device's department must be a clinic node or a
 * base, docs/organisation.md): found by name, or made once with its disinfection base, under the
 * seeded company in the platform tenant. The seed makes none, so a fresh install's department tree
 * stays as shipped until the simulator is first run.
 */
export async function ensureDemoClinic(api: ConsoleApi): Promise<string> {
  const nodes = await api.get<DeptRow[]>(`${DEPT}/getNodes`);
  const clinic = nodes.find((n) => n.deptName === DEMO_CLINIC_NAME);
  if (clinic) return clinic.id;
  const bases = await api.get<DeptRow[]>(`${DEPT}/getBases`);
  const base =
    bases.find((b) => b.deptName === DEMO_BASE_NAME)?.id ??
    String(
      await api.post<string>(`${DEPT}/submit`, {
        deptName: DEMO_BASE_NAME,
        fullName: DEMO_BASE_NAME,
        parentId: api.tenant === DEFAULT_TENANT_ID ? DEPT_IDS.company : '0',
        deptCategory: 4,
        sort: 90,
      }),
    );
  return String(
    await api.post<string>(`${DEPT}/submit`, {
      deptName: DEMO_CLINIC_NAME,
      fullName: DEMO_CLINIC_NAME,
      parentId: base,
      deptCategory: 5,
      sort: 1,
    }),
  );
}
