import type { lock as zh } from '../zh/lock';

export const lock: typeof zh = {};
