import type { header as zh } from '../zh/header';

export const header: typeof zh = {};
