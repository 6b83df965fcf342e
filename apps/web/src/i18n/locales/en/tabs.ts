import type { tabs as zh } from '../zh/tabs';

export const tabs: typeof zh = {
  clearCache: 'Clear cache',
  clearCacheConfirm: 'Clear the cache?',
  cacheCleared: 'Cache cleared',
  closeOthers: 'Close others',
  closeAll: 'Close all',
};
