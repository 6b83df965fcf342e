export * from './log';
export * from './resource';
export * from './system';
