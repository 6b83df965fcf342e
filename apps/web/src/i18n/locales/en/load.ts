import type { load as zh } from '../zh/load';

export const load: typeof zh = {
  cycle: 'Cycle',
  parametric: 'Parametric',
  pass: 'Pass',
  fail: 'Fail',
  none: 'Not judged',
  packCount: 'Packs',
  packs: 'Packs',
  packsTitle: 'Packs of load {no}',
  code: 'Pack code',
  article: 'Article',
  state: 'State',
  expiry: 'Expires on',
  release: 'Release',
  releaseConfirm: 'Release this load? Its packs become sterile.',
  close: 'Close',
  pickDevice: 'Choose the steriliser first',
};
