import { defineResource } from '../../resource/define';
import { configCodeField, credentialFields, providerField, remarkField, urlField } from '../common-fields';

/** Message templates (dictionary `sms`: 1 云片, 2 七牛云, 3 阿里云, 4 腾讯云, 5 开发环境). */
export const SmsCategory = { yunpian: 1, qiniu: 2, aliyun: 3, tencent: 4, development: 5 } as const;

/**
 * SMS configurations: one provider account and template per row, one enabled per tenant. The
 * secret key is kept encrypted (requests are signed with it); the access key is shown masked.
 */
export const smsResource = defineResource({
  code: 'sms',
  title: { zh: '短信配置', en: 'SMS' },
  table: 'blade_sms',
  api: '/blade-resource/sms',
  owner: 'tenant',
  operations: ['list', 'detail', 'submit', 'remove', 'export', 'enable'],
  fields: {
    category: providerField('sms'),
    smsCode: configCodeField(),
    templateId: { kind: 'string', label: { zh: '模板ID', en: 'Template id' }, max: 64, required: true },
    ...credentialFields(),
    appId: {
      kind: 'string',
      label: { zh: '应用ID', en: 'App id' },
      max: 64,
      list: false,
    },
    regionId: { kind: 'string', label: { zh: '地域', en: 'Region' }, max: 64, list: false },
    signName: { kind: 'string', label: { zh: '短信签名', en: 'Signature' }, max: 64 },
    endpoint: { ...urlField({ zh: '接口地址', en: 'Endpoint' }), list: false },
    remark: remarkField(),
  },
  indexes: [
    {
      fields: ['tenantId', 'smsCode'],
      unique: true,
      message: { zh: '资源编号已存在', en: 'The code already exists' },
    },
  ],
  defaultSort: [{ field: 'smsCode' }],
  dialogWidth: 800,
});
