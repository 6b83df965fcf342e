import { defineResource } from '@mes/contracts';

// Definitions of the tests only (their tables made by `createTablesFor`): a parent with one child
// collection, for the child rows' tests and the kernel's hooks around them.

/** A child definition of the tests only: a gadget's parts, kept in the order sent. */
export const partResource = defineResource({
  code: 'gadget_part',
  title: { zh: '零件', en: 'Parts' },
  table: 'mes_test_gadget_part',
  api: '/mes-test/gadget-part',
  owner: 'tenant',
  operations: [],
  fields: {
    gadgetId: { kind: 'id', label: { zh: '小工具', en: 'Gadget' }, form: false, list: false },
    name: { kind: 'string', label: { zh: '零件名称', en: 'Part name' }, max: 32, required: true },
    qty: { kind: 'int', label: { zh: '数量', en: 'Quantity' }, range: [1, 999], default: 1 },
    position: { kind: 'int', label: { zh: '顺序', en: 'Order' }, form: false, default: 0 },
  },
});

export const gadgetResource = defineResource({
  code: 'gadget',
  title: { zh: '小工具', en: 'Gadgets' },
  table: 'mes_test_gadget',
  api: '/mes-test/gadget',
  owner: 'tenant',
  fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 64, required: true } },
  children: {
    parts: {
      resource: () => partResource,
      parentField: 'gadgetId',
      orderField: 'position',
      label: { zh: '零件', en: 'Parts' },
      max: 5,
      unique: { fields: ['name'], message: { zh: '零件名称重复', en: 'The part name repeats' } },
    },
  },
});
