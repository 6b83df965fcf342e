import { index, integer, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigintId, idColumn, tenantColumn } from '../columns';

/**
 * The tables of the system resources come from their definitions (resource-tables.ts, written
 * by `npm run db:generate`); these are the link tables beside them.
 */

/** The clients' table under the name the modules know it by. */
export { client as oauthClient } from './resource-tables';

export const roleMenu = pgTable(
  'blade_role_menu',
  {
    id: idColumn(),
    menuId: bigintId('menu_id').notNull(),
    roleId: bigintId('role_id').notNull(),
  },
  (t) => [uniqueIndex('blade_role_menu_uq').on(t.roleId, t.menuId)],
);

/** Scopes granted to roles: category 1 data scope, 2 API scope. */
export const roleScope = pgTable(
  'blade_role_scope',
  {
    id: idColumn(),
    scopeCategory: integer('scope_category').notNull(),
    scopeId: bigintId('scope_id').notNull(),
    roleId: bigintId('role_id').notNull(),
  },
  (t) => [uniqueIndex('blade_role_scope_uq').on(t.roleId, t.scopeCategory, t.scopeId)],
);

export const topMenuSetting = pgTable(
  'blade_top_menu_setting',
  {
    id: idColumn(),
    topMenuId: bigintId('top_menu_id').notNull(),
    menuId: bigintId('menu_id').notNull(),
  },
  (t) => [uniqueIndex('blade_top_menu_setting_uq').on(t.topMenuId, t.menuId)],
);

/**
 * Clinic nodes on a delivery line (docs/organisation.md): `direction` 1 pickup (回收),
 * 2 delivery (发放); `sort` is the stop order.
 */
export const deptLine = pgTable(
  'blade_dept_line',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    lineId: bigintId('line_id').notNull(),
    deptId: bigintId('dept_id').notNull(),
    direction: integer('direction').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('blade_dept_line_uq').on(t.tenantId, t.lineId, t.direction, t.deptId),
    index('blade_dept_line_dept_idx').on(t.deptId),
  ],
);
