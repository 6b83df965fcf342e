import type { FieldDef, LocalText } from '../resource/define';

/** Fields many resources share; spread them into a definition and override what differs. */
export const sortField = () =>
  ({
    kind: 'int',
    label: { zh: '排序', en: 'Sort' },
    default: 0,
    range: [-999999, 999999],
    sort: true,
    width: 80,
  }) as const satisfies FieldDef;

export const remarkField = () =>
  ({
    kind: 'string',
    label: { zh: '备注', en: 'Remark' },
    max: 255,
    list: false,
    control: 'textarea',
    wide: true,
  }) as const satisfies FieldDef;

/** The parent of a tree row; 0 at the root. */
export const parentField = (label: LocalText, url: string) =>
  ({
    kind: 'id',
    label,
    default: '0',
    control: 'tree-select',
    options: { url },
    list: false,
  }) as const satisfies FieldDef;
