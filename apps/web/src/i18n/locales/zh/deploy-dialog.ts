/** Texts of the workflow model deploy dialog. */
export const deployDialog = { title: '部署模型' };
