/** Texts of the workflow deployment fields. */
export const deployFields = {
  category: '流程分类',
  categoryRequired: '请选择流程分类',
  tenants: '部署租户',
  tenantsHint: '不选即部署到当前租户',
};
