export * from './report-builtins';
export * from './report-file';
export * from './report-schedule';
export * from './report-spec';
export * from './report-template';
export * from './warning';
export * from './warning-escalation';
