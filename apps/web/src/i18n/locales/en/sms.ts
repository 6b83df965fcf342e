import type { sms as zh } from '../zh/sms';

export const sms: typeof zh = {
  sendTest: 'Test send',
  sendTitle: 'Send a test SMS',
  code: 'Code',
  phones: 'Phone numbers',
  phonesPlaceholder: 'Separate several numbers with commas',
  phonesRequired: 'Enter a phone number',
  phonesInvalid: 'Invalid phone number: {{phone}}',
  params: 'Template parameters',
  paramsHelp: 'A JSON object keyed by template variable, e.g. {"code":"1234"}',
  paramsInvalid: 'Template parameters must be a JSON object',
  notEnabledHint: 'This configuration is disabled; enable it before sending',
};
