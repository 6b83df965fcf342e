import type { FieldDef } from '../../engine/define';
import { deptResource } from '../system/dept';
import { deviceResource } from './device';

/**
 * The device a written-by-the-system row belongs to (a cycle, a warning): its id with the device's
 * name beside it, its code (the key every telemetry row carries, kept when the device is removed)
 * and its department (the data scope's column). Read-only, searchable. `minor`: those of them a
 * table shows on a wide screen only (`listPriority: 'low'`), where its own key columns need the room.
 */
export const deviceRowFields = (minor: readonly ('deviceId' | 'deviceCode' | 'deptId')[] = []) => {
  const fields = {
    deviceId: {
      kind: 'reference',
      label: { zh: '设备', en: 'Device' },
      form: 'readonly',
      reference: { to: () => deviceResource, label: 'deviceName', onRemove: 'clear' },
      search: true,
      width: 140,
    },
    deviceCode: {
      kind: 'string',
      label: { zh: '设备编号', en: 'Device code' },
      max: 64,
      form: 'readonly',
      search: true,
      width: 130,
    },
    deptId: {
      kind: 'reference',
      label: { zh: '所属机构', en: 'Department' },
      form: 'readonly',
      reference: { to: () => deptResource, label: 'deptName', onRemove: 'clear' },
      search: true,
      width: 140,
    },
  } as const satisfies Record<string, FieldDef>;
  for (const name of minor) Object.assign(fields[name], { listPriority: 'low' });
  return fields;
};
