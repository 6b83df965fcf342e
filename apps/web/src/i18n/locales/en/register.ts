import type { register as zh } from '../zh/register';

export const register: typeof zh = {
  link: 'Register',
  title: 'Register an account',
  tenantId: 'Tenant code',
  name: 'User name',
  account: 'Account name',
  password: 'Password',
  password2: 'Confirm password',
  tenantRequired: 'Enter the tenant code first',
  accountRequired: 'Enter the account name first',
  passwordRequired: 'Enter the password first',
  passwordMismatch: 'The two passwords do not match',
  submit: 'Submit',
  submitFailed: 'Submission failed',
  doneTitle: 'Registration',
  doneContent: 'Your registration has been submitted; please wait for an administrator to approve it!',
};
