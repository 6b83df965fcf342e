import { md5 } from 'js-md5';
import { userResource, type FieldDef, type ResourceDef } from '@mes/contracts';
import { system as en } from '../../../i18n/locales/en/system';
import { system as zh } from '../../../i18n/locales/zh/system';
import type { FormMode } from '../../../engine/resource-page-types';

/**
 * The confirmation is a screen-only field: it exists in the add form (checked against the
 * password before sending) and never reaches the server.
 */
const password2: FieldDef = {
  kind: 'secret',
  label: { zh: zh.password2, en: en.password2 },
  required: true,
  requiredMessage: { zh: zh.password2Required, en: en.password2Required },
  form: 'create',
  list: false,
};

/** The user definition with the confirmation right after the password. */
export const userScreenResource: ResourceDef = {
  ...userResource,
  fields: Object.fromEntries(
    Object.entries(userResource.fields).flatMap(([name, field]): [string, FieldDef][] =>
      name === 'password'
        ? [
            [name, field],
            ['password2', password2],
          ]
        : [[name, field]],
    ),
  ),
};

/**
 * Adding: the two passwords must match, and the server takes the md5 hex of what was typed (as
 * at sign-in), never the typed text.
 */
export function userBeforeSubmit(values: Record<string, unknown>, mode: FormMode, mismatch: string) {
  const { password2: confirm, ...rest } = values;
  if (mode !== 'add') {
    delete rest.password;
    return rest;
  }
  const password = typeof rest.password === 'string' ? rest.password : '';
  if (password !== confirm) throw new Error(mismatch);
  return { ...rest, password: md5(password) };
}
