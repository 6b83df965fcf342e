import type { LocalText } from '../engine/local-text';

/** A top-level entry of the side menu; screens name it in their `menu.group`. */
export interface MenuGroupDef {
  code: string;
  title: LocalText;
  path: string;
  /** Icon name (the `source` column of the menu). */
  icon: string;
  /** Position in the side menu (spec section 1 order). */
  sort: number;
}

/**
 * The menu groups of spec section 1 that have screens so far. A later area adds its group here;
 * its screens then name it. The seed turns each into a menu row (category 1, parent 0).
 */
export const MENU_GROUP_DEFS = [
  { code: 'work', title: { zh: '我的事务', en: 'My work' }, path: '/work', icon: 'desktop', sort: 0 },
  { code: 'system', title: { zh: '系统管理', en: 'System' }, path: '/system', icon: 'setting', sort: 1 },
  { code: 'authority', title: { zh: '权限管理', en: 'Authority' }, path: '/authority', icon: 'safety', sort: 2 },
  { code: 'resource', title: { zh: '资源管理', en: 'Resources' }, path: '/resource', icon: 'cloud', sort: 3 },
  { code: 'flow', title: { zh: '流程管理', en: 'Workflow' }, path: '/flow', icon: 'apartment', sort: 4 },
  { code: 'device', title: { zh: '设备管理', en: 'Devices' }, path: '/device', icon: 'control', sort: 5 },
  { code: 'report', title: { zh: '统计报表', en: 'Reports' }, path: '/report', icon: 'bar-chart', sort: 6 },
  { code: 'business', title: { zh: '业务管理', en: 'Business' }, path: '/business', icon: 'shop', sort: 7 },
  { code: 'monitor', title: { zh: '系统监控', en: 'Monitoring' }, path: '/monitor', icon: 'fund', sort: 8 },
  { code: 'tool', title: { zh: '研发工具', en: 'Development' }, path: '/tool', icon: 'tool', sort: 9 },
] as const satisfies readonly MenuGroupDef[];

export type MenuGroupCode = (typeof MENU_GROUP_DEFS)[number]['code'];
