import type { live as zh } from '../zh/live';

export const live: typeof zh = {
  loadFailed: 'Could not load',
  retry: 'Retry',
  unreadMark: 'Unread',
  activeWarnings: '{{count}} unhandled warnings',
  unreadNotices: '{{count}} unread notices',
  viewAllNotices: 'All notices',
  viewAllWarnings: 'All warnings',
  level_1: 'Critical',
  level_2: 'Major',
  level_3: 'Minor',
  level_4: 'Warning',
};
