export * from './system';
export * from './ephemeral';
export * from './log';
