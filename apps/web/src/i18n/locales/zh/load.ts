/** Texts of the sterilisation load screen. */
export const load = {
  cycle: '灭菌周期',
  parametric: '参数判定',
  pass: '合格',
  fail: '不合格',
  none: '未判定',
  packCount: '器械包数',
  packs: '器械包',
  packsTitle: '批次 {no} 的器械包',
  code: '包编号',
  article: '物品',
  state: '状态',
  expiry: '失效日期',
  release: '放行',
  releaseConfirm: '确认放行该批次?放行后其器械包转为无菌。',
  close: '关闭',
  pickDevice: '请先选择灭菌器',
};
