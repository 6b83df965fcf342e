export * from './resource';
export * from './system';
