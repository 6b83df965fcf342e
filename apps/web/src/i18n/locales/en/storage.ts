import type { storage as zh } from '../zh/storage';

export const storage: typeof zh = {
  debug: 'Test upload',
  debugTitle: 'Test upload: {{code}}',
  debugHint:
    'Choose a file to upload with this configuration; its address is shown on success and it is listed under attachments.',
  enableFirst: 'Enable this configuration first',
  dropHint: 'Click or drag a file here to upload',
  sizeHint: 'At most 20 MB per file',
  uploading: 'Uploading…',
  uploaded: 'Uploaded',
  link: 'Address',
  objectKey: 'Object key',
  upload: 'Upload',
  download: 'Download',
  tooLarge: 'The file must not exceed 20 MB',
};
