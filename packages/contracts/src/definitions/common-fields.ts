import type { FieldDef, LocalText } from '../engine/define';

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

/** An absolute http(s) address; the message names the field (`接口地址应以 http:// 或 https:// 开头`). */
export const httpUrlPattern = (label: LocalText) => ({
  regex: '^https?://[^\\s]+$',
  message: { zh: `${label.zh}应以 http:// 或 https:// 开头`, en: `${label.en} must start with http:// or https://` },
});

/** The provider of an SMS or storage configuration, from its system dictionary. */
export const providerField = (dict: string) =>
  ({
    kind: 'int',
    label: { zh: '服务商', en: 'Provider' },
    required: true,
    options: { dict },
    search: true,
    width: 110,
  }) as const satisfies FieldDef;

/** The code a configuration is picked by (`send-message?code=`, `put-file?code=`), unique per tenant. */
export const configCodeField = () =>
  ({
    kind: 'string',
    label: { zh: '资源编号', en: 'Code' },
    max: 64,
    required: true,
    pattern: {
      regex: '^[A-Za-z0-9_-]+$',
      message: { zh: '资源编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
    },
    search: true,
  }) as const satisfies FieldDef;

/** An access key shown only in part, and its secret kept encrypted (provider credentials). */
export const credentialFields = () =>
  ({
    accessKey: { kind: 'string', label: { zh: 'AccessKey', en: 'Access key' }, max: 255, masked: true },
    secretKey: { kind: 'secret', label: { zh: 'SecretKey', en: 'Secret key' }, max: 255, sealed: true },
  }) as const satisfies Record<string, FieldDef>;

/** A whole-row http(s) address field. */
export const urlField = (label: LocalText, max = 255) =>
  ({ kind: 'string', label, max, pattern: httpUrlPattern(label), wide: true }) as const satisfies FieldDef;
