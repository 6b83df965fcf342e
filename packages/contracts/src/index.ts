export * from './api';
export * from './auth';
export * from './query';
export * from './system';
export * from './format/date-time';
export * from './resource';
export * from './resources';
export * from './live';
