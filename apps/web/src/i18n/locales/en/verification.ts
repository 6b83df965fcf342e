import type { verification as zh } from '../zh/verification';

export const verification: typeof zh = {
  loads: 'Recall',
  title: 'Recall - {no}',
  packs: 'Packs',
  records: 'Disinfection records',
  recordNo: 'Record no',
  batchNo: 'Batch no',
  load: 'Load',
  endTime: 'Ended',
  dept: 'Department',
  state: 'State',
  open: 'Open',
  handled: 'Handled',
  result: 'Result',
  handle: 'Handle selected',
  resultHint: 'Result (e.g. retrieved and re-sterilised)',
  none: 'No recalled loads',
  close: 'Close',
};
