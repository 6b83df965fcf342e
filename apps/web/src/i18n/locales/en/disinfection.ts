import type { disinfection as zh } from '../zh/disinfection';

export const disinfection: typeof zh = {
  load: 'Load',
  packs: '{n} packs',
  packRecall: 'Pack recall',
  recalled: 'Recalled',
  handled: 'Recall handled',
  pass: 'Parametric pass',
  fail: 'Parametric fail',
  none: 'Not judged',
};
