import type { social as zh } from '../zh/social';

export const social: typeof zh = {
  qrConfirmTitle: 'Confirm QR sign-in',
  callbackTitle: 'Third-party sign-in',
};
