export * from './define';
export * from './validate';
