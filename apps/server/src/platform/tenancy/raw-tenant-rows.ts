/**
 * The tenant condition of a raw, parameterised statement (node-postgres `client.query`), for the
 * device data path's batch statements that drizzle's builders do not cover: live rows of the
 * tenant given as parameter `$tenantParam`. The same condition as `tenantRows` (tenant-scope.ts),
 * so raw SQL never writes its own.
 */
export function rawTenantRows(tenantParam: number, alias?: string): string {
  if (!Number.isInteger(tenantParam) || tenantParam < 1) throw new Error('rawTenantRows: a parameter number from 1');
  if (alias !== undefined && !/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error('rawTenantRows: a plain alias');
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('tenant_id')} = $${tenantParam} and ${column('is_deleted')} = 0`;
}

/**
 * The tenant condition of a raw statement's join: live rows of `alias` in the tenant named by the
 * column `outer` (`k.tenant_id`, a batch's keys unnested), as `rowsOfSameTenant` is for drizzle.
 */
export function rawRowsOfSameTenant(alias: string, outer: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error('rawRowsOfSameTenant: a plain alias');
  if (!/^[a-z_][a-z0-9_]*\.tenant_id$/.test(outer)) throw new Error('rawRowsOfSameTenant: a column <alias>.tenant_id');
  return `${alias}.tenant_id = ${outer} and ${alias}.is_deleted = 0`;
}
