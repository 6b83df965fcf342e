import type { sms as zh } from '../zh/sms';

export const sms: typeof zh = {};
