import type { wel as zh } from '../zh/wel';

export const wel: typeof zh = {};
