/** The desk's own refusals (400s), in the console's language. */
export const DeskMessages = {
  unknownRoles: { zh: '所选角色不存在或不属于本租户', en: 'A chosen role does not exist or is not of this tenant' },
  unknownDepts: {
    zh: '所选机构不存在或不属于本租户',
    en: 'A chosen department does not exist or is not of this tenant',
  },
  unknownUsers: {
    zh: '所选用户不存在或不属于本租户',
    en: 'A chosen user does not exist or is not of this tenant',
  },
  badPage: (name: string) => ({
    zh: `请求参数 ${name} 不正确: 应为 1 以上的整数`,
    en: `The parameter ${name} is invalid: must be an integer of 1 or more`,
  }),
} as const;
