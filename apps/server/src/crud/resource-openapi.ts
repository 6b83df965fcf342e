import type { FastifySchema } from 'fastify';
import { type ResourceDef } from '@mes/contracts';
import type { ListFields } from '../platform/http/list-query';

const text = { type: 'string' } as const;

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
  const bodyProps: Record<string, object> = { id: { description: 'Absent to add, present to update' } };
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.form === false || field.form === 'readonly') continue;
    bodyProps[name] = {
      description: `${field.label.en} (${field.label.zh}), ${field.kind}${field.required ? ', required' : ''}${
        field.max ? `, at most ${field.max} characters` : ''
      }`,
    };
  }
  const schema = (summary: string, extra: FastifySchema = {}): FastifySchema => ({ tags, summary, ...extra });
  const query = (properties: Record<string, object>) => ({ type: 'object', properties, additionalProperties: true });
  return {
    list: schema(`${def.title.en}: page of rows`, { querystring: query(filters) }),
    tree: schema(`${def.title.en}: tree for pickers`),
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
