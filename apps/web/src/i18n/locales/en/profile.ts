import type { profile as zh } from '../zh/profile';

export const profile: typeof zh = {};
