import type { crud as zh } from '../zh/crud';

export const crud: typeof zh = {
  placeholder: '',
};
