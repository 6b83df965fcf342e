import type { errorLog as zh } from '../zh/errorLog';

export const errorLog: typeof zh = {};
