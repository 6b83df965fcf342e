export * from './oauth';
