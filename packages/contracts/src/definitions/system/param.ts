import { defineResource } from '../../engine/define';
import { remarkField } from '../common-fields';

/** Platform-wide parameters (`account.failCount`, ...); spec section 5 gives the messages. */
export const paramResource = defineResource({
  code: 'param',
  title: { zh: '参数管理', en: 'Parameters' },
  table: 'blade_param',
  api: '/blade-system/param',
  menu: { group: 'system', sort: 8, icon: 'tool', platformOnly: true },
  owner: 'platform',
  fields: {
    paramName: {
      kind: 'string',
      label: { zh: '参数名称', en: 'Name' },
      max: 255,
      required: true,
      requiredMessage: { zh: '请输入参数名称', en: 'Please enter the parameter name' },
      search: true,
    },
    paramKey: {
      kind: 'string',
      label: { zh: '参数键名', en: 'Key' },
      max: 255,
      required: true,
      requiredMessage: { zh: '请输入参数键名', en: 'Please enter the parameter key' },
      search: true,
      sort: true,
    },
    paramValue: {
      kind: 'string',
      label: { zh: '参数键值', en: 'Value' },
      max: 2000,
      required: true,
      requiredMessage: { zh: '请输入参数键值', en: 'Please enter the parameter value' },
      search: true,
    },
    remark: remarkField(),
  },
  indexes: [
    {
      name: 'blade_param_key_uq',
      fields: ['paramKey'],
      unique: true,
      message: { zh: '参数键名已存在', en: 'The parameter key already exists' },
    },
  ],
  defaultSort: [{ field: 'paramKey' }],
});
