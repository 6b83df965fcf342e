import type { live as zh } from '../zh/live';

export const live: typeof zh = {};
