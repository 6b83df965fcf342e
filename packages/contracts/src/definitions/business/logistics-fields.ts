import type { FieldDef, LocalText } from '../../engine/define';
import { deptResource } from '../system/dept';

/**
 * The bar code a scanner reads off a car or a pack: required, since it is unique per tenant and
 * an empty code would collide with the next one.
 */
export const barCodeField = () =>
  ({
    kind: 'string',
    label: { zh: '条码', en: 'Bar code' },
    max: 64,
    required: true,
    search: true,
    pattern: {
      regex: '^[A-Za-z0-9-]+$',
      message: { zh: '条码只能包含字母、数字和 -', en: 'A bar code holds letters, digits and - only' },
    },
    width: 140,
  }) as const satisfies FieldDef;

/** A code people type and scanners print (letters, digits, `_`, `-`), unique per tenant by an index. */
export const codeField = (label: LocalText) =>
  ({
    kind: 'string',
    label,
    max: 32,
    required: true,
    search: true,
    sort: true,
    pattern: {
      regex: '^[A-Za-z0-9_-]+$',
      message: { zh: `${label.zh}只能包含字母、数字、_ 和 -`, en: `${label.en} holds letters, digits, _ and - only` },
    },
    width: 120,
  }) as const satisfies FieldDef;

/**
 * The disinfection base (a department of category 4) a line or a car belongs to, offered as the
 * flat list of bases rather than the department tree. With `refuseOthers` the engine refuses any
 * other department; the line leaves that to its module, whose message also serves dept/setLines.
 */
export const baseField = (refuseOthers: boolean) =>
  ({
    kind: 'reference',
    label: { zh: '消毒基地', en: 'Base' },
    required: true,
    search: true,
    reference: {
      to: () => deptResource,
      label: 'deptName',
      ...(refuseOthers ? { where: { field: 'deptCategory', in: [4] } } : {}),
    },
    options: { url: '/blade-system/dept/getBases', label: 'deptName', value: 'id' },
    width: 140,
  }) as const satisfies FieldDef;
