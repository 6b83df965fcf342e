export * from './telemetry-common';
export * from './telemetry';
export * from './acquisition';
export * from './iot-api';
export * from './telemetry-minute';
