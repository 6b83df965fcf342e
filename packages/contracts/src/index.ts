export * from './api';
export * from './auth';
export * from './query';
export * from './system';
export * from './format/date-time';
export * from './engine';
export * from './definitions';
export * from './live';
