import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import {
  displayNameOf,
  formatDateTime,
  isAggregate,
  isListed,
  namedValueText,
  type FieldDef,
  type Lang,
  type ResourceDef,
} from '@mes/contracts';
import type { AppContext } from '../app-context';
import type { AuthContext } from '../platform/auth/request-auth';
import { dict, dictBiz } from '../platform/db/schema';
import { tenantRows } from '../platform/tenancy/tenant-scope';
import type { Row } from './resource-routes';

async function optionLabels(ctx: AppContext, def: ResourceDef, auth: AuthContext, lang: Lang) {
  const labels = new Map<string, Map<string, string>>();
  for (const [name, field] of Object.entries(def.fields)) {
    const source = field.options;
    if (!source) continue;
    let pairs: [string, string][] = [];
    if ('items' in source) pairs = source.items.map((i) => [String(i.value), i.label[lang]]);
    else if ('dict' in source) {
      const rows = await ctx.db
        .select({ k: dict.dictKey, v: dict.dictValue })
        .from(dict)
        .where(and(eq(dict.code, source.dict), ne(dict.parentId, '0'), eq(dict.isDeleted, 0)));
      pairs = rows.map((r) => [r.k, r.v]);
    } else if ('dictBiz' in source) {
      const rows = await ctx.db
        .select({ k: dictBiz.dictKey, v: dictBiz.dictValue })
        .from(dictBiz)
        .where(tenantRows(dictBiz, auth.tenantId, eq(dictBiz.code, source.dictBiz), ne(dictBiz.parentId, '0')));
      pairs = rows.map((r) => [r.k, r.v]);
    }
    if (pairs.length) labels.set(name, new Map(pairs));
  }
  return labels;
}

const YES_NO = { zh: ['是', '否'], en: ['Yes', 'No'] } as const;

/**
 * A cell as a reader expects it: a referenced row by its label, a boolean as yes / no, a JSON
 * value as its text. Decimals stay text, so the sheet shows every digit the database holds.
 */
function cellOf(field: FieldDef, name: string, row: Row, lang: Lang): unknown {
  const value = row[name];
  switch (field.kind) {
    case 'reference':
      return row[displayNameOf(name)] ?? '';
    case 'boolean':
      return typeof value === 'boolean' ? YES_NO[lang][value ? 0 : 1] : '';
    case 'json':
      return value === null || value === undefined ? '' : JSON.stringify(value);
    default:
      return value instanceof Date ? formatDateTime(value) : value;
  }
}

/** Streams the rows as an xlsx sheet with the list's columns, dictionary values as labels. */
export async function sendXlsx(
  reply: FastifyReply,
  ctx: AppContext,
  def: ResourceDef,
  rows: Row[],
  auth: AuthContext,
  acceptLanguage: string | undefined,
) {
  const lang: Lang = acceptLanguage?.toLowerCase().startsWith('en') ? 'en' : 'zh';
  const labels = await optionLabels(ctx, def, auth, lang);
  const columns = Object.entries(def.fields).filter(([, f]) => isListed(f));
  // The audit column `create_time`, unless the definition lists a field of that name itself; an
  // aggregate has only the columns it declares.
  const created = !isAggregate(def) && !('createTime' in def.fields);
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(def.title[lang].slice(0, 31));
  sheet.columns = [
    ...columns.map(([name, f]) => ({ header: f.label[lang], key: name, width: Math.max(12, (f.width ?? 120) / 8) })),
    ...(created ? [{ header: lang === 'zh' ? '创建时间' : 'Created', key: 'createTime', width: 20 }] : []),
  ];
  const fileName = `${def.code}-${formatDateTime(new Date()).replace(/[^0-9]/g, '')}.xlsx`;
  reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename="${fileName}"`);
  void (async () => {
    for (const row of rows) {
      const out: Record<string, unknown> = {};
      for (const [name, field] of columns) {
        const value = row[name];
        const map = labels.get(name);
        out[name] = map
          ? (map.get(String(value)) ?? value)
          : // A value a module's decorate named (an enumerated trigger value): `灭菌 (3)`.
            (namedValueText(row, name, lang) ?? cellOf(field, name, row, lang));
      }
      if (created) out.createTime = row.createTime instanceof Date ? formatDateTime(row.createTime) : '';
      sheet.addRow(out).commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => stream.destroy(error as Error));
  return reply.send(stream);
}
