export * from './device-directory';
export * from './mqtt-broker';
export * from './start-mqtt';
export * from './subscriber';
export * from './topics';
export * from './revocation';
