import type { register as zh } from '../zh/register';

export const register: typeof zh = {};
