import type { reportFiles as zh } from '../zh/report-files';

export const reportFiles: typeof zh = {
  generate: 'Generate',
  template: 'Template',
  format: 'Format',
  range: 'Dates',
  ok: 'Generate',
  queued: 'Queued for generation',
  download: 'Download',
  pickTemplate: 'Choose a template',
};
