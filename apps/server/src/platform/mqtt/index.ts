export * from './device-directory';
export * from './ingestion';
export * from './mqtt-broker';
export * from './start-mqtt';
export * from './subscriber';
