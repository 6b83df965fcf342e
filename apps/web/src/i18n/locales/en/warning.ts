import type { warning as zh } from '../zh/warning';

export const warning: typeof zh = {};
