import type { storage as zh } from '../zh/storage';

export const storage: typeof zh = {};
