/** Texts of the workflow models screen. */
export const workflowModels = { add: '新建模型', design: '设计', deploy: '部署' };
