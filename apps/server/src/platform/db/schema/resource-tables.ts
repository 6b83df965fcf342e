// Written by `npm run db:generate` (apps/server/src/crud/registry-codegen.ts): the table of every resource definition, where drizzle-kit finds it. Do not edit.
import { DEFINITIONS } from '@mes/contracts';
import { resourceTable } from '../resource-table';

export const line = resourceTable(DEFINITIONS.lineResource);
export const apiLog = resourceTable(DEFINITIONS.apiLogResource);
export const errorLog = resourceTable(DEFINITIONS.errorLogResource);
export const loginLog = resourceTable(DEFINITIONS.loginLogResource);
export const operationLog = resourceTable(DEFINITIONS.operationLogResource);
export const usualLog = resourceTable(DEFINITIONS.usualLogResource);
export const attach = resourceTable(DEFINITIONS.attachResource);
export const oss = resourceTable(DEFINITIONS.ossResource);
export const sms = resourceTable(DEFINITIONS.smsResource);
export const socialSource = resourceTable(DEFINITIONS.socialSourceResource);
export const client = resourceTable(DEFINITIONS.clientResource);
export const datasource = resourceTable(DEFINITIONS.datasourceResource);
export const dept = resourceTable(DEFINITIONS.deptResource);
export const dictBiz = resourceTable(DEFINITIONS.dictBizResource);
export const dict = resourceTable(DEFINITIONS.dictResource);
export const menu = resourceTable(DEFINITIONS.menuResource);
export const param = resourceTable(DEFINITIONS.paramResource);
export const post = resourceTable(DEFINITIONS.postResource);
export const region = resourceTable(DEFINITIONS.regionResource);
export const role = resourceTable(DEFINITIONS.roleResource);
export const apiScope = resourceTable(DEFINITIONS.apiScopeResource);
export const dataScope = resourceTable(DEFINITIONS.dataScopeResource);
export const tenant = resourceTable(DEFINITIONS.tenantResource);
export const topMenu = resourceTable(DEFINITIONS.topMenuResource);
export const user = resourceTable(DEFINITIONS.userResource);
