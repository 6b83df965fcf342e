import { defineResource } from '../../engine/define';

/** `audienceType`: who a notice is for. */
export const NoticeAudience = { everyone: 1, roles: 2, depts: 3, users: 4 } as const;

/** `POST /blade-desk/notice/read?id=`: marks a notice read for the caller. */
export const NOTICE_READ_PATH = '/blade-desk/notice/read';
/** `GET /blade-desk/notice/inbox`: the caller's released notices, newest first, with `read` and the unread count. */
export const NOTICE_INBOX_PATH = '/blade-desk/notice/inbox';

export interface NoticeInboxEntry {
  id: string;
  title: string;
  category: number;
  categoryName: string;
  releaseTime: string;
  read: boolean;
}
/** A page of the inbox (the list envelope's fields) and the caller's unread count over all of it. */
export interface NoticeInboxReply {
  records: NoticeInboxEntry[];
  total: number;
  size: number;
  current: number;
  pages: number;
  unread: number;
}

/**
 * A notice of the desk (BladeX `blade_notice`): title, category (dictionary notice), release time,
 * who it is for, and rich text that the server sanitises before storing it (docs/desk.md), so no
 * script written into one reaches another user. It reaches its audience at its release time;
 * each reader's read mark is kept per user.
 */
export const noticeResource = defineResource({
  code: 'notice',
  title: { zh: '通知公告', en: 'Notices' },
  table: 'blade_notice',
  api: '/blade-desk/notice',
  owner: 'tenant',
  dialogWidth: 960,
  menu: { group: 'business', sort: 30, icon: 'notification', nameEn: 'Notices' },
  fields: {
    title: {
      kind: 'string',
      label: { zh: '通知标题', en: 'Title' },
      max: 255,
      required: true,
      search: true,
      wide: true,
      width: 260,
    },
    category: {
      kind: 'int',
      label: { zh: '通知类型', en: 'Category' },
      required: true,
      default: 1,
      range: [1, 99],
      options: { dict: 'notice' },
      search: true,
      width: 110,
    },
    releaseTime: {
      kind: 'datetime',
      label: { zh: '发布时间', en: 'Release time' },
      required: true,
      sort: true,
      width: 170,
    },
    audienceType: {
      kind: 'int',
      label: { zh: '通知对象', en: 'Audience' },
      default: NoticeAudience.everyone,
      range: [1, 4],
      options: {
        items: [
          { value: NoticeAudience.everyone, label: { zh: '全部人员', en: 'Everyone' } },
          { value: NoticeAudience.roles, label: { zh: '指定角色', en: 'Roles' } },
          { value: NoticeAudience.depts, label: { zh: '指定机构', en: 'Departments' } },
          { value: NoticeAudience.users, label: { zh: '指定用户', en: 'Users' } },
        ],
      },
      width: 100,
    },
    audienceIds: {
      kind: 'ids',
      label: { zh: '对象', en: 'Who' },
      max: 2000,
      list: false,
      visibleWhen: { field: 'audienceType', in: [NoticeAudience.roles, NoticeAudience.depts, NoticeAudience.users] },
      requiredWhen: { field: 'audienceType', in: [NoticeAudience.roles, NoticeAudience.depts, NoticeAudience.users] },
    },
    content: {
      kind: 'text',
      label: { zh: '通知内容', en: 'Content' },
      max: 65536,
      list: false,
      wide: true,
    },
  },
  indexes: [{ fields: ['tenantId', 'releaseTime'] }],
  defaultSort: [{ field: 'releaseTime', desc: true }],
});
