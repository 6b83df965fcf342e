import { defineResource } from '../../engine/define';

/** OAuth clients; the secret is stored as a hash and never sent back. */
export const clientResource = defineResource({
  code: 'client',
  title: { zh: '应用管理', en: 'Clients' },
  table: 'blade_client',
  api: '/blade-system/client',
  menu: { group: 'system', sort: 10, icon: 'api', platformOnly: true },
  owner: 'platform',
  fields: {
    clientId: {
      kind: 'string',
      label: { zh: '应用ID', en: 'Client id' },
      max: 48,
      required: true,
      pattern: {
        regex: '^[A-Za-z0-9_-]+$',
        message: { zh: '应用ID只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
      },
      search: true,
    },
    clientSecret: { kind: 'secret', label: { zh: '应用密钥', en: 'Client secret' }, max: 256, required: true },
    authorizedGrantTypes: {
      kind: 'string',
      label: { zh: '授权类型', en: 'Grant types' },
      max: 256,
      required: true,
      default: 'refresh_token,password,captcha',
      pattern: {
        regex: '^(refresh_token|password|captcha|sms|social|qr)(,(refresh_token|password|captcha|sms|social|qr))*$',
        message: {
          zh: '授权类型只能是 refresh_token,password,captcha,sms,social,qr 的组合',
          en: 'A comma list of refresh_token, password, captcha, sms, social, qr',
        },
      },
      wide: true,
    },
    scope: { kind: 'string', label: { zh: '授权范围', en: 'Scope' }, max: 256, default: 'all' },
    accessTokenValidity: {
      kind: 'int',
      label: { zh: '令牌秒数', en: 'Access token seconds' },
      required: true,
      default: 3600,
      range: [60, 2592000],
    },
    refreshTokenValidity: {
      kind: 'int',
      label: { zh: '刷新秒数', en: 'Refresh token seconds' },
      required: true,
      default: 604800,
      range: [60, 31536000],
    },
    resourceIds: { kind: 'string', label: { zh: '资源集合', en: 'Resource ids' }, max: 256, list: false },
    webServerRedirectUri: {
      kind: 'string',
      label: { zh: '回调地址', en: 'Redirect URI' },
      max: 256,
      list: false,
      pattern: {
        regex: '^https?://',
        message: { zh: '回调地址应以 http 或 https 开头', en: 'Must start with http or https' },
      },
    },
    authorities: { kind: 'string', label: { zh: '权限', en: 'Authorities' }, max: 256, list: false },
    additionalInformation: {
      kind: 'string',
      label: { zh: '附加说明', en: 'Additional information' },
      max: 4096,
      list: false,
      control: 'textarea',
      wide: true,
    },
    autoapprove: { kind: 'string', label: { zh: '自动授权', en: 'Auto-approve' }, max: 256, list: false },
  },
  indexes: [
    {
      name: 'blade_client_client_id_uq',
      fields: ['clientId'],
      unique: true,
      message: { zh: '应用ID已存在', en: 'The client id already exists' },
    },
  ],
  defaultSort: [{ field: 'clientId' }],
});
