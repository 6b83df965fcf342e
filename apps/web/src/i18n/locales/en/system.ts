import type { system as zh } from '../zh/system';

export const system: typeof zh = {
  placeholder: '',
};
