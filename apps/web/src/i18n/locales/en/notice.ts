import type { notice as zh } from '../zh/notice';

export const notice: typeof zh = {};
