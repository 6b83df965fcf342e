/** The dictionary screens: parent list, child list, and the two side-by-side layouts. */
export const dict = {
  childConfig: '字典配置',
  childTitle: '字典配置 - {{name}}',
  chooseParent: '请先在字典列表中选择一个字典',
  horizontal: '字典管理(横向)',
  vertical: '字典管理(纵向)',
  parentPanel: '字典列表',
  childPanel: '字典项',
  showChildren: '字典项',
  addChild: '新增子项',
};
