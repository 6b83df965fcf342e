/** Texts of the workflow model designer. */
export const modelDesigner = {
  titleNew: '新建模型',
  titleEdit: '设计模型',
  description: '模型描述',
  importXml: '导入XML',
  importTitle: '粘贴 BPMN 2.0 XML',
  importFailed: '无法读取该XML',
  save: '保存',
  cancel: '取消',
  saved: '模型已保存',
  newName: '新流程',
};
