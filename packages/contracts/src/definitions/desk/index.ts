export * from './desk-service';
export * from './notice';
export * from './welcome-api';
export * from './demo-api';
