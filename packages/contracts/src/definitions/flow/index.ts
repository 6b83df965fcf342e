export * from './flow-tables';
export * from './flow-api';
export * from './flow-forms';
