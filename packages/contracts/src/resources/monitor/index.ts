export * from './failed-jobs';
