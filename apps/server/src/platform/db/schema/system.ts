import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, bigintId, idColumn, tenantColumn, timestampColumn } from '../columns';

const notDeleted = sql`is_deleted = 0`;

export const tenant = pgTable(
  'blade_tenant',
  {
    id: idColumn(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    tenantName: varchar('tenant_name', { length: 50 }).notNull(),
    domainUrl: varchar('domain_url', { length: 255 }).notNull().default(''),
    backgroundUrl: varchar('background_url', { length: 1000 }).notNull().default(''),
    linkman: varchar('linkman', { length: 50 }).notNull().default(''),
    contactNumber: varchar('contact_number', { length: 30 }).notNull().default(''),
    address: varchar('address', { length: 255 }).notNull().default(''),
    /** -1 means no limit. */
    accountNumber: integer('account_number').notNull().default(-1),
    expireTime: timestampColumn('expire_time'),
    datasourceId: bigintId('datasource_id'),
    licenseKey: text('license_key').notNull().default(''),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('blade_tenant_tenant_id_uq').on(t.tenantId).where(notDeleted)],
);

export const oauthClient = pgTable(
  'blade_client',
  {
    id: idColumn(),
    clientId: varchar('client_id', { length: 48 }).notNull(),
    /** `sha256:<hex>` of the secret; the secret itself is never stored. */
    clientSecret: varchar('client_secret', { length: 256 }).notNull(),
    resourceIds: varchar('resource_ids', { length: 256 }).notNull().default(''),
    scope: varchar('scope', { length: 256 }).notNull().default('all'),
    /** Comma-joined grant types this client may use. */
    authorizedGrantTypes: varchar('authorized_grant_types', { length: 256 }).notNull(),
    webServerRedirectUri: varchar('web_server_redirect_uri', { length: 256 }).notNull().default(''),
    authorities: varchar('authorities', { length: 256 }).notNull().default(''),
    accessTokenValidity: integer('access_token_validity').notNull(),
    refreshTokenValidity: integer('refresh_token_validity').notNull(),
    additionalInformation: varchar('additional_information', { length: 4096 }).notNull().default(''),
    autoapprove: varchar('autoapprove', { length: 256 }).notNull().default(''),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('blade_client_client_id_uq').on(t.clientId).where(notDeleted)],
);

export const user = pgTable(
  'blade_user',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    code: varchar('code', { length: 12 }).notNull().default(''),
    userType: integer('user_type').notNull().default(1),
    account: varchar('account', { length: 45 }).notNull(),
    /** argon2id of the md5 hex the client sends. */
    password: varchar('password', { length: 255 }).notNull(),
    name: varchar('name', { length: 20 }).notNull().default(''),
    realName: varchar('real_name', { length: 10 }).notNull().default(''),
    avatar: varchar('avatar', { length: 500 }).notNull().default(''),
    email: varchar('email', { length: 45 }).notNull().default(''),
    phone: varchar('phone', { length: 45 }).notNull().default(''),
    birthday: timestampColumn('birthday'),
    sex: integer('sex'),
    /** Comma-joined ids, as the contract carries them. */
    roleId: varchar('role_id', { length: 1000 }).notNull().default(''),
    deptId: varchar('dept_id', { length: 1000 }).notNull().default(''),
    postId: varchar('post_id', { length: 1000 }).notNull().default(''),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('blade_user_account_uq').on(t.tenantId, t.account).where(notDeleted)],
);

export const role = pgTable(
  'blade_role',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    parentId: bigintId('parent_id').notNull().default('0'),
    roleName: varchar('role_name', { length: 255 }).notNull(),
    sort: integer('sort').notNull().default(0),
    roleAlias: varchar('role_alias', { length: 255 }).notNull(),
    ...auditColumns(),
  },
  (t) => [index('blade_role_tenant_idx').on(t.tenantId)],
);

export const dept = pgTable(
  'blade_dept',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    parentId: bigintId('parent_id').notNull().default('0'),
    /** Comma-joined ids of every ancestor, root first. */
    ancestors: varchar('ancestors', { length: 2000 }).notNull().default('0'),
    deptCategory: integer('dept_category').notNull().default(1),
    deptName: varchar('dept_name', { length: 45 }).notNull(),
    fullName: varchar('full_name', { length: 45 }).notNull().default(''),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }).notNull().default(''),
    ...auditColumns(),
  },
  (t) => [index('blade_dept_tenant_idx').on(t.tenantId)],
);

export const post = pgTable(
  'blade_post',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    category: integer('category').notNull().default(1),
    postCode: varchar('post_code', { length: 12 }).notNull(),
    postName: varchar('post_name', { length: 64 }).notNull(),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }).notNull().default(''),
    ...auditColumns(),
  },
  (t) => [index('blade_post_tenant_idx').on(t.tenantId)],
);

/** Platform-wide parameters (`account.failCount`, ...). */
export const param = pgTable(
  'blade_param',
  {
    id: idColumn(),
    paramName: varchar('param_name', { length: 255 }).notNull(),
    paramKey: varchar('param_key', { length: 255 }).notNull(),
    paramValue: varchar('param_value', { length: 2000 }).notNull(),
    remark: varchar('remark', { length: 255 }).notNull().default(''),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('blade_param_key_uq').on(t.paramKey).where(notDeleted)],
);

const dictColumns = () => ({
  id: idColumn(),
  parentId: bigintId('parent_id').notNull().default('0'),
  code: varchar('code', { length: 255 }).notNull(),
  dictKey: varchar('dict_key', { length: 255 }).notNull().default(''),
  dictValue: varchar('dict_value', { length: 255 }).notNull(),
  sort: integer('sort').notNull().default(0),
  remark: varchar('remark', { length: 255 }).notNull().default(''),
  isSealed: integer('is_sealed').notNull().default(0),
  ...auditColumns(),
});

/** System dictionaries, shared by every tenant. */
export const dict = pgTable('blade_dict', dictColumns(), (t) => [index('blade_dict_code_idx').on(t.code)]);

/** Business dictionaries, one set per tenant. */
export const dictBiz = pgTable('blade_dict_biz', { ...dictColumns(), tenantId: tenantColumn() }, (t) => [
  index('blade_dict_biz_code_idx').on(t.tenantId, t.code),
]);

export const menu = pgTable(
  'blade_menu',
  {
    id: idColumn(),
    parentId: bigintId('parent_id').notNull().default('0'),
    code: varchar('code', { length: 255 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    alias: varchar('alias', { length: 255 }).notNull().default(''),
    path: varchar('path', { length: 255 }).notNull().default(''),
    source: varchar('source', { length: 255 }).notNull().default(''),
    sort: integer('sort').notNull().default(0),
    category: integer('category').notNull().default(1),
    action: integer('action').notNull().default(0),
    isOpen: integer('is_open').notNull().default(1),
    remark: varchar('remark', { length: 255 }).notNull().default(''),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('blade_menu_code_uq').on(t.code).where(notDeleted)],
);

export const roleMenu = pgTable(
  'blade_role_menu',
  {
    id: idColumn(),
    menuId: bigintId('menu_id').notNull(),
    roleId: bigintId('role_id').notNull(),
  },
  (t) => [uniqueIndex('blade_role_menu_uq').on(t.roleId, t.menuId)],
);

export const topMenu = pgTable(
  'blade_top_menu',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    code: varchar('code', { length: 255 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    source: varchar('source', { length: 255 }).notNull().default(''),
    sort: integer('sort').notNull().default(0),
    ...auditColumns(),
  },
  (t) => [index('blade_top_menu_tenant_idx').on(t.tenantId)],
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
