import type { codegen as zh } from '../zh/codegen';

export const codegen: typeof zh = {
  readColumns: 'Read columns',
  columnsRead: '{{count}} columns read',
  preview: 'Preview',
  generate: 'Generate selected',
  download: 'Download',
  copy: 'Copy',
  copied: 'Copied as a new configuration',
  previewTitle: 'Code preview',
  files: 'Files',
  copySource: 'Copy code',
  sourceCopied: 'Copied to the clipboard',
  selectFirst: 'Select configurations first',
  close: 'Close',
  loading: 'Loading…',
};
