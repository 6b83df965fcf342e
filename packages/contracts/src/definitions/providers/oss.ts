import { defineResource, type FieldCondition } from '../../engine/define';
import { configCodeField, credentialFields, providerField, remarkField, urlField } from '../common-fields';

/** Storage providers (dictionary `oss`: 1 minio, 2 七牛云, 3 阿里云, 4 腾讯云, 5 本地磁盘). */
export const OssCategory = { minio: 1, qiniu: 2, aliyun: 3, tencent: 4, local: 5 } as const;

/** The S3-compatible providers: each needs an endpoint, both keys and a bucket (local disk none). */
const s3Provider: FieldCondition = {
  field: 'category',
  in: [OssCategory.minio, OssCategory.qiniu, OssCategory.aliyun, OssCategory.tencent],
};
const s3Setting = { visibleWhen: s3Provider, requiredWhen: s3Provider } as const;
const { accessKey, secretKey } = credentialFields();

/**
 * Object-storage configurations, one enabled per tenant; with none enabled files go to the
 * server's local disk. Categories 1–4 are reached through their S3-compatible APIs.
 */
export const ossResource = defineResource({
  code: 'oss',
  title: { zh: '对象存储', en: 'Object storage' },
  table: 'blade_oss',
  api: '/blade-resource/oss',
  menu: {
    group: 'resource',
    sort: 2,
    icon: 'cloud-upload',
    buttons: [
      { action: 'enable', name: { zh: '启用', en: 'Enable' } },
      { action: 'debug', name: { zh: '上传调试', en: 'Try upload' } },
    ],
  },
  owner: 'tenant',
  operations: ['list', 'detail', 'submit', 'remove', 'export', 'enable'],
  fields: {
    category: providerField('oss'),
    ossCode: configCodeField(),
    endpoint: { ...urlField({ zh: '资源地址', en: 'Endpoint' }), ...s3Setting },
    accessKey: { ...accessKey, ...s3Setting },
    secretKey: { ...secretKey, ...s3Setting },
    bucketName: {
      ...s3Setting,
      kind: 'string',
      label: { zh: '空间名', en: 'Bucket' },
      max: 64,
      pattern: {
        regex: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
        message: {
          zh: '空间名只能包含小写字母、数字、. 和 -(3–63 位)',
          en: '3–63 lower-case letters, digits, . and -',
        },
      },
    },
    // Tencent COS bucket names end in the account's AppId.
    appId: {
      kind: 'string',
      label: { zh: 'AppId', en: 'App id' },
      max: 64,
      list: false,
      visibleWhen: { field: 'category', in: [OssCategory.tencent] },
    },
    region: {
      kind: 'string',
      label: { zh: '地域', en: 'Region' },
      max: 64,
      list: false,
      visibleWhen: s3Provider,
    },
    remark: remarkField(),
  },
  indexes: [
    {
      fields: ['tenantId', 'ossCode'],
      unique: true,
      message: { zh: '资源编号已存在', en: 'The code already exists' },
    },
  ],
  defaultSort: [{ field: 'ossCode' }],
  dialogWidth: 800,
});
