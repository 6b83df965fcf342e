export * from './telemetry';
