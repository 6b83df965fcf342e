import type { dict as zh } from '../zh/dict';

export const dict: typeof zh = {
  childConfig: 'Entries',
  childTitle: 'Entries of {{name}}',
  chooseParent: 'Choose a dictionary in the list first',
  horizontal: 'Dictionaries (side by side)',
  vertical: 'Dictionaries (stacked)',
  parentPanel: 'Dictionaries',
  childPanel: 'Entries',
  showChildren: 'Entries',
  addChild: 'Add child',
};
