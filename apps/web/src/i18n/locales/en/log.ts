import type { log as zh } from '../zh/log';

export const log: typeof zh = {};
