import { defineResource } from '../../engine/define';
import { configCodeField, credentialFields, providerField, remarkField, urlField } from '../common-fields';

/** Message templates (dictionary `sms`: 1 云片, 2 七牛云, 3 阿里云, 4 腾讯云, 5 开发环境). */
export const SmsCategory = { yunpian: 1, qiniu: 2, aliyun: 3, tencent: 4, development: 5 } as const;

const { accessKey, secretKey } = credentialFields();
/** Providers that need a setting (the server's SMS providers list what each sends with). */
const providers = (...categories: number[]) => ({ field: 'category', in: categories });

/**
 * SMS configurations: one provider account and template per row, one enabled per tenant. The
 * secret key is kept encrypted (requests are signed with it); the access key is shown masked.
 */
export const smsResource = defineResource({
  code: 'sms',
  title: { zh: '短信配置', en: 'SMS' },
  table: 'blade_sms',
  api: '/blade-resource/sms',
  menu: {
    group: 'resource',
    sort: 1,
    icon: 'message',
    buttons: [
      { action: 'enable', name: { zh: '启用', en: 'Enable' } },
      { action: 'send', name: { zh: '发送测试', en: 'Send test' } },
    ],
    scopes: [{ action: 'send', name: '短信发送', path: '/api/blade-resource/sms/endpoint/**' }],
  },
  owner: 'tenant',
  operations: ['list', 'detail', 'submit', 'remove', 'export', 'enable'],
  fields: {
    category: providerField('sms'),
    smsCode: configCodeField(),
    templateId: { kind: 'string', label: { zh: '模板ID', en: 'Template id' }, max: 64, required: true },
    accessKey: {
      ...accessKey,
      visibleWhen: providers(SmsCategory.qiniu, SmsCategory.aliyun, SmsCategory.tencent),
      requiredWhen: providers(SmsCategory.qiniu, SmsCategory.aliyun, SmsCategory.tencent),
    },
    // 云片 signs with its API key alone, kept as the SecretKey.
    secretKey: {
      ...secretKey,
      visibleWhen: providers(SmsCategory.yunpian, SmsCategory.qiniu, SmsCategory.aliyun, SmsCategory.tencent),
      requiredWhen: providers(SmsCategory.yunpian, SmsCategory.qiniu, SmsCategory.aliyun, SmsCategory.tencent),
    },
    appId: {
      kind: 'string',
      label: { zh: '应用ID', en: 'App id' },
      max: 64,
      list: false,
      visibleWhen: providers(SmsCategory.tencent),
      requiredWhen: providers(SmsCategory.tencent),
    },
    regionId: {
      kind: 'string',
      label: { zh: '地域', en: 'Region' },
      max: 64,
      list: false,
      visibleWhen: providers(SmsCategory.aliyun, SmsCategory.tencent),
    },
    signName: {
      kind: 'string',
      label: { zh: '短信签名', en: 'Signature' },
      max: 64,
      requiredWhen: providers(SmsCategory.aliyun, SmsCategory.tencent),
    },
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
