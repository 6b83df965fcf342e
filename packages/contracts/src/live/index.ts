export * from './live-events';
