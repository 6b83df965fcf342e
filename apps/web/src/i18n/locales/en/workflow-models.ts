import type { workflowModels as zh } from '../zh/workflow-models';

export const workflowModels: typeof zh = { add: 'New model', design: 'Design', deploy: 'Deploy' };
