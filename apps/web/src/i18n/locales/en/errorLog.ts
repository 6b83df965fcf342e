import type { errorLog as zh } from '../zh/errorLog';

export const errorLog: typeof zh = {
  button: 'Error log',
  title: 'Error log',
  type: 'Type',
  url: 'Address',
  message: 'Content',
  stack: 'Stack',
  time: 'Time',
  upload: 'Upload to server',
  clear: 'Clear local logs',
  uploadConfirm: 'Upload the local logs to the server?',
  uploadSuccess: 'Sent!',
  clearConfirm: 'Clear the local log records?',
  clearSuccess: 'Cleared!',
  empty: 'No errors logged',
  total: '{{count}} in total',
  boundaryTitle: 'This page failed',
  boundaryHint: 'The error is in the local error log; open it from the header to view or upload it',
  retry: 'Try again',
};
