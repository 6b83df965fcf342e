import { defineResource } from '../../engine/define';

/**
 * Every stored file: created by `oss/endpoint/put-file`, removed together with the stored
 * object. Only the original name can be edited.
 */
export const attachResource = defineResource({
  code: 'attach',
  title: { zh: '附件管理', en: 'Attachments' },
  table: 'blade_attach',
  api: '/blade-resource/attach',
  menu: {
    group: 'resource',
    sort: 3,
    icon: 'paper-clip',
    buttons: [
      { action: 'upload', name: { zh: '上传', en: 'Upload' } },
      { action: 'download', name: { zh: '下载', en: 'Download' } },
    ],
  },
  owner: 'tenant',
  listRoute: 'page',
  fields: {
    originalName: {
      kind: 'string',
      label: { zh: '附件原名', en: 'Original name' },
      max: 255,
      required: true,
      search: true,
      sort: true,
      pattern: {
        regex: '^[^/\\\\\\u0000-\\u001f]+$',
        message: { zh: '文件名不能包含路径或控制字符', en: 'No paths or control characters' },
      },
    },
    name: { kind: 'string', label: { zh: '附件名称', en: 'Stored name' }, max: 500, form: 'readonly' },
    extension: {
      kind: 'string',
      label: { zh: '附件拓展名', en: 'Extension' },
      max: 32,
      search: true,
      form: 'readonly',
      width: 100,
    },
    attachSize: {
      kind: 'int',
      label: { zh: '附件大小', en: 'Size' },
      form: 'readonly',
      sort: true,
      width: 110,
      range: [0, 2147483647],
    },
    link: { kind: 'string', label: { zh: '附件地址', en: 'Link' }, max: 1000, form: 'readonly', wide: true },
    domainUrl: { kind: 'string', label: { zh: '附件域名', en: 'Domain' }, max: 500, form: 'readonly', list: false },
    ossCode: {
      kind: 'string',
      label: { zh: '存储配置', en: 'Storage' },
      max: 64,
      form: 'readonly',
      search: true,
      width: 110,
    },
  },
  defaultSort: [{ field: 'createTime', desc: true }],
});

/** What `put-file` answers (BladeX `BladeFile`). */
export interface UploadedFile {
  link: string;
  domain: string;
  /** The object key (`upload/<yyyyMMdd>/<random>.<ext>`). */
  name: string;
  originalName: string;
  attachId: string;
}
