export * from './system';
export * from './resource';
export * from './ephemeral';
export * from './log';
