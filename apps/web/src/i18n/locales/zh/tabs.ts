/** Strings of the tab bar. */
export const tabs = {
  clearCache: '清除缓存',
  clearCacheConfirm: '是否需要清除缓存?',
  cacheCleared: '清除完毕',
  closeOthers: '关闭其他',
  closeAll: '关闭全部',
};
