import type { dict as zh } from '../zh/dict';

export const dict: typeof zh = {
  placeholder: '',
};
