export * from './device-directory';
export * from './ingestion';
export * from './start-telemetry';
export { busyPortMessage, type MqttTuning } from '../../platform/mqtt';
