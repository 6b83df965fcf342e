/** A hand-written tenant condition found in source text. */
export interface TenantConditionHit {
  /** 1-based line of the match. */
  line: number;
  text: string;
}

/**
 * What a tenant condition written by hand looks like in this code base: a drizzle operator
 * applied to a `tenantId` column (`eq(user.tenantId, ...)`, also across lines), a `tenantId`
 * column compared inside an `sql` template (`${t.tenantId} = ...`, `= ${t.tenantId}`), or
 * `tenant_id` compared in SQL text. JavaScript comparisons (`===`, `!==`) of a tenant id are
 * not conditions and do not match.
 */
const PATTERNS: readonly RegExp[] = [
  /\b(?:eq|ne|inArray|notInArray|isNull|isNotNull)\(\s*[\w$.]+\.tenantId\b/g,
  /\b(?:eq|ne)\(\s*[^,()]+,\s*[\w$.]+\.tenantId\s*\)/g,
  /\$\{\s*[\w$.]+\.tenantId\s*\}\s*(?:=|<>|!=|\bin\b|\bis\b)/g,
  /(?:=|<>|!=)\s*\$\{\s*[\w$.]+\.tenantId\s*\}/g,
  /(?<![.\w])tenant_id\s*(?:=(?!=)|<>|!=(?!=)|\bin\b)/g,
];

/**
 * A write or condition meant for every tenant (log retention, a platform purge, a release's menus
 * for every tenant's administrator) says so on its line or the line above: `// tenancy: all tenants (why)`.
 */
const ALL_TENANTS_MARK = /\/\/\s*tenancy: all tenants\b/;

const markedAllTenants = (lines: readonly string[], line: number) =>
  ALL_TENANTS_MARK.test(`${lines[line - 2] ?? ''}\n${lines[line - 1] ?? ''}`);

/** The hand-written tenant conditions in one source file's text (but those marked as above). */
export function findTenantConditions(source: string): TenantConditionHit[] {
  const hits = new Map<number, TenantConditionHit>();
  for (const pattern of PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      const index = match.index ?? 0;
      const line = source.slice(0, index).split('\n').length;
      if (!hits.has(line)) hits.set(line, { line, text: match[0].replace(/\s+/g, ' ') });
    }
  }
  const lines = source.split('\n');
  return [...hits.values()].filter((hit) => !markedAllTenants(lines, hit.line)).sort((a, b) => a.line - b.line);
}

/**
 * Updates and deletes of tenant-owned tables (`tables`: their export names) run on the database
 * or a transaction directly (`tx.update(user)`, `ctx.db.delete(deptLine)`), bypassing
 * `tenantScope`, which always adds the tenant to a write (unless marked as above).
 */
export function findRawTenantWrites(source: string, tables: readonly string[]): TenantConditionHit[] {
  if (!tables.length) return [];
  const names = tables.map((t) => t.replace(/[^\w$]/g, '')).join('|');
  const pattern = new RegExp(
    String.raw`\b(?:tx|trx|db|ctx\s*\.\s*db|this\s*\.\s*ctx\s*\.\s*db|this\s*\.\s*db)\s*\.\s*(?:update|delete)\(\s*(?:${names})\s*\)`,
    'g',
  );
  const lines = source.split('\n');
  return [...source.matchAll(pattern)]
    .map((match) => ({
      line: source.slice(0, match.index ?? 0).split('\n').length,
      text: match[0].replace(/\s+/g, ' '),
    }))
    .filter((hit) => !markedAllTenants(lines, hit.line));
}
