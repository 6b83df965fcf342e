import type { deployDialog as zh } from '../zh/deploy-dialog';

export const deployDialog: typeof zh = { title: 'Deploy model' };
