/** Texts of the disinfection records screen. */
export const disinfection = {
  recalled: '召回',
  handled: '召回已处理',
  pass: '参数合格',
  fail: '参数不合格',
  none: '未判定',
  load: '灭菌批次',
  packs: '{n} 包',
  packRecall: '器械包召回',
};
