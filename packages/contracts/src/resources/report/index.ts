export * from './warning';
