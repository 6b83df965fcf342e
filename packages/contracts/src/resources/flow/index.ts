export * from './flow-tables';
export * from './flow-api';
