export * from './list-query';
export * from './value-ranges';
