export * from './system';
export * from './ephemeral';
