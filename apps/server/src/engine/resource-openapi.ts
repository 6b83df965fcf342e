import type { FastifySchema } from 'fastify';
import { decimalShapeOf, type FieldDef, type ResourceDef } from '@mes/contracts';
import type { ListFields } from '../platform/http/list-query';

const text = { type: 'string' } as const;

/** How a value of the field is written, for kinds whose wire form is not plain. */
function wireForm(field: FieldDef): string {
  switch (field.kind) {
    case 'decimal': {
      const { precision, scale } = decimalShapeOf(field);
      return `, exact decimal NUMERIC(${precision},${scale}) as text such as "12.50" (a number is accepted)`;
    }
    case 'boolean':
      return ', true or false';
    case 'date':
      return ', yyyy-MM-dd';
    case 'datetime':
      return ', yyyy-MM-dd HH:mm:ss';
    case 'json':
      return `, JSON value of the schema ${JSON.stringify(field.schema ?? { type: 'object' })}`;
    case 'reference':
      return `, id of a ${field.reference?.to().title.en ?? 'referenced'} row (replies add its name as the field name + "Name")`;
    default:
      return field.numberAsText ? ', text (a number is taken as its text)' : '';
  }
}

/**
 * OpenAPI descriptions of a resource's generic routes. Query values stay untyped strings and
 * body properties untyped, so these schemas document without changing what the routes accept
 * (validation is the definition's, shared with the web form).
 */
export function openApiSchemas(def: ResourceDef, fields: ListFields) {
  const tags = [def.title.en];
  const filters: Record<string, object> = {
    current: { ...text, description: 'Page number, default 1' },
    size: { ...text, description: 'Page size, default 10, at most 1000' },
    ascs: { ...text, description: 'Comma-joined sortable fields, ascending' },
    descs: { ...text, description: 'Comma-joined sortable fields, descending' },
  };
  for (const [name, spec] of Object.entries(fields)) {
    if (spec.filter)
      filters[name] = { ...text, description: `Filter (${spec.type}); suffixes _equal, _like, _gt, ...` };
  }
  if (def.owner === 'tenant')
    filters.tenantId = {
      ...text,
      description: def.platformSeesAllTenants
        ? 'Tenant id: narrows the platform tenant’s list of every tenant; ignored for other callers'
        : 'Tenant id: accepted and ignored (callers see their own tenant)',
    };
  const bodyProps: Record<string, object> = { id: { description: 'Absent to add, present to update' } };
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.form === false || field.form === 'readonly' || field.savedBy !== undefined) continue;
    bodyProps[name] = {
      description: `${field.label.en} (${field.label.zh}), ${field.kind}${wireForm(field)}${field.required ? ', required' : ''}${
        field.max ? `, at most ${field.max} characters` : ''
      }`,
    };
  }
  const schema = (summary: string, extra: FastifySchema = {}): FastifySchema => ({ tags, summary, ...extra });
  const query = (properties: Record<string, object>) => ({ type: 'object', properties, additionalProperties: true });
  return {
    list: schema(`${def.title.en}: page of rows`, { querystring: query(filters) }),
    forest: schema(`${def.title.en}: every matching row as a tree (current and size are ignored)`, {
      querystring: query(filters),
    }),
    tree: schema(`${def.title.en}: tree for pickers`),
    select: schema(`${def.title.en}: every row for a picker, of the caller's tenant or the one the platform names`, {
      querystring: query({ tenantId: { ...text, description: 'Tenant (platform callers only)' } }),
    }),
    detail: schema(`${def.title.en}: one row`, { querystring: query({ id: { ...text, description: 'Row id' } }) }),
    submit: schema(`${def.title.en}: add (no id) or update (id)`, {
      body: { type: 'object', properties: bodyProps, additionalProperties: true },
    }),
    remove: schema(`${def.title.en}: soft delete`, {
      querystring: query({ ids: { ...text, description: 'Comma-joined ids' } }),
    }),
    export: schema(`${def.title.en}: xlsx of every matching row`, { querystring: query(filters) }),
    enable: schema(`${def.title.en}: make this row the tenant's only enabled one`, {
      querystring: query({ id: { ...text, description: 'Row id' } }),
    }),
  };
}
