import type { log as zh } from '../zh/log';

export const log: typeof zh = {
  detailTitle: '{{title}}: details',
  tenant: 'Tenant',
  changes: 'Changes',
  field: 'Field',
  before: 'Before',
  after: 'After',
  noChanges: 'No field changed',
  empty: '(empty)',
  signIns: 'Sign-ins',
  today: 'Today',
  todaySuccess: 'Succeeded',
  todayFail: 'Failed',
  last7Days: 'Last 7 days',
  times: '{{count}}',
  takenAt: 'As of {{time}}',
  refresh: 'Refresh',
};
