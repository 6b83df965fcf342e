export * from './api-log';
export * from './error-log';
export * from './log-fields';
export * from './login-log';
export * from './operation-log';
export * from './usual-log';
