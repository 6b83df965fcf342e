import type { deployFields as zh } from '../zh/deploy-fields';

export const deployFields: typeof zh = {
  category: 'Category',
  categoryRequired: 'Choose a category',
  tenants: 'Tenants',
  tenantsHint: 'None chosen: the current tenant',
};
