import { defineResource } from '../../engine/define';
import { remarkField, urlField } from '../common-fields';

/** OpenID Connect has no known endpoints; GitHub's and Gitee's are built in (a row's own still win). */
const oidc = { requiredWhen: { field: 'category', in: ['oidc'] } } as const;

/** The OAuth2 shapes supported for third-party sign-in. */
export const SOCIAL_CATEGORIES = ['oidc', 'github', 'gitee'] as const;
export type SocialCategory = (typeof SOCIAL_CATEGORIES)[number];

/**
 * Third-party sign-in providers of a tenant (`grant_type=social`, `source` = the row's source).
 * GitHub and Gitee need only the client id and secret; an OIDC provider also needs its URLs.
 */
export const socialSourceResource = defineResource({
  code: 'social',
  title: { zh: '第三方登录', en: 'Social sign-in' },
  table: 'blade_social_source',
  api: '/blade-resource/social',
  menu: { group: 'resource', sort: 4, icon: 'link' },
  owner: 'tenant',
  fields: {
    source: {
      kind: 'string',
      label: { zh: '来源编号', en: 'Source' },
      max: 32,
      required: true,
      search: true,
      pattern: {
        regex: '^[a-z][a-z0-9_-]*$',
        message: {
          zh: '来源编号只能包含小写字母、数字、_ 和 -,且以字母开头',
          en: 'Lower-case letters, digits, _ and -',
        },
      },
    },
    name: { kind: 'string', label: { zh: '显示名称', en: 'Display name' }, max: 64, required: true, search: true },
    category: {
      kind: 'string',
      label: { zh: '协议类型', en: 'Kind' },
      max: 16,
      required: true,
      default: 'oidc',
      options: {
        items: [
          { value: 'oidc', label: { zh: 'OpenID Connect', en: 'OpenID Connect' } },
          { value: 'github', label: { zh: 'GitHub', en: 'GitHub' } },
          { value: 'gitee', label: { zh: 'Gitee', en: 'Gitee' } },
        ],
      },
      width: 140,
    },
    clientId: { kind: 'string', label: { zh: 'Client ID', en: 'Client id' }, max: 255, required: true, masked: true },
    clientSecret: {
      kind: 'secret',
      label: { zh: 'Client Secret', en: 'Client secret' },
      max: 255,
      sealed: true,
      // Needed to add a provider; an edit that leaves it empty keeps the stored one.
      required: true,
      requiredMessage: { zh: '请输入 Client Secret', en: 'Please enter the client secret' },
    },
    authorizeUrl: { ...urlField({ zh: '授权地址', en: 'Authorize URL' }, 500), list: false, ...oidc },
    tokenUrl: { ...urlField({ zh: '令牌地址', en: 'Token URL' }, 500), list: false, ...oidc },
    userInfoUrl: { ...urlField({ zh: '用户信息地址', en: 'User-info URL' }, 500), list: false, ...oidc },
    scope: {
      kind: 'string',
      label: { zh: '授权范围', en: 'Scope' },
      max: 255,
      default: 'openid profile email',
      list: false,
    },
    redirectUri: { ...urlField({ zh: '回调地址', en: 'Redirect URI' }, 500), list: false },
    remark: remarkField(),
  },
  indexes: [
    {
      fields: ['tenantId', 'source'],
      unique: true,
      message: { zh: '来源编号已存在', en: 'The source already exists' },
    },
  ],
  defaultSort: [{ field: 'source' }],
  dialogWidth: 800,
});
