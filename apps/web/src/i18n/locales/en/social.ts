import type { social as zh } from '../zh/social';

export const social: typeof zh = {};
