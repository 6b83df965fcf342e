import type { lock as zh } from '../zh/lock';

export const lock: typeof zh = {
  button: 'Lock screen',
  dialogTitle: 'Set a lock password',
  password: 'Lock password',
  passwordRequired: 'The lock password cannot be empty',
  passwordPlaceholder: 'Enter a lock password',
  locked: 'Screen locked',
  unlock: 'Unlock',
  unlockPlaceholder: 'Enter the lock password to unlock',
  wrongPassword: 'Wrong lock password, please try again',
  logout: 'Sign out',
  logoutConfirm: 'Sign out of the system?',
};
