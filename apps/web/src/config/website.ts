import { DEFAULT_TENANT_ID, TOKEN_HEADER } from '@mes/contracts';

/** A tab of the tab bar (spec section 3 "Tag"). */
export interface TabItem {
  /** i18n key or plain label. */
  label: string;
  /** The route path, without query. */
  value: string;
  query?: Record<string, string>;
  /** `detail`: the route parameter a fixed route shows after its name (`设备实时数据 · WL-001`). */
  meta?: { i18n?: string; isTab?: boolean; detail?: string };
  close?: boolean;
}

/** Client and website configuration (spec section 3). */
export const website = {
  title: 'MES Console',
  /** Shown in the sidebar when collapsed. */
  logo: 'MES',
  /** Shown in the sidebar when open, and after the tab title in the page title. */
  indexTitle: 'MES 制造执行系统',
  clientId: 'saber',
  clientSecret: 'saber_secret',
  tenantMode: false,
  tenantId: DEFAULT_TENANT_ID,
  lockPage: '/lock',
  /** Token age (s) at which the shell refreshes it: below the 3600 s lifetime, with margin. */
  tokenTime: 3000,
  tokenHeader: TOKEN_HEADER,
  /** Every stored item's key starts with this. */
  storagePrefix: 'mes-',
  refreshCheckMs: 10_000,
  requestTimeoutMs: 10_000,
  lockDelayMs: 100,
  errorBadgeMax: 99,
  defaultColor: '#409EFF',
  defaultTheme: 'theme-vip',
  /** The home tab, which cannot be closed. */
  firstPage: { label: 'dashboard', value: '/wel/index', meta: { i18n: 'dashboard' }, close: false } as TabItem,
  /** Side-menu groups open by default. */
  openMenus: ['/basic', '/system', '/report'],
} as const;
