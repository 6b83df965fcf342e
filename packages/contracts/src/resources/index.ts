export * from './business';
export * from './log';
export * from './monitor';
export * from './resource';
export * from './system';
export * from './definitions';
export * from './registry';
