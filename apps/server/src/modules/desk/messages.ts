/** The desk's own refusals (400s), in the console's language. */
export const DeskMessages = {
  unknownRoles: '所选角色不存在或不属于本租户',
  unknownDepts: '所选机构不存在或不属于本租户',
  badPage: (name: string) => `请求参数 ${name} 不正确: 应为 1 以上的整数`,
} as const;
