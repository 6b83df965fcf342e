import type { common as zh } from '../zh/common';

export const common: typeof zh = {
  title: 'MES Console',
  dashboard: 'Home',
  console: 'Console',
  info: 'Profile',
  lock: 'Lock screen',
  ok: 'OK',
  cancel: 'Cancel',
  submit: 'Submit',
  reset: 'Reset',
  tip: 'Notice',
  unknownError: 'Unknown error',
  notFound: 'Page not found',
  forbidden: 'Sorry, you may not open this page',
  serverError: 'Sorry, the server failed',
  backHome: 'Back home',
  loading: 'Loading',
  chunkFailed: 'Loading chunk {{name}} failed; reload the page to try again',
  notBuilt: 'This screen is not available yet',
};
