export * from './resource-tables';
export * from './system';
export * from './resource';
export * from './ephemeral';
export * from './mqtt-delivery';
export * from './device-cycle-day';
export * from './notice-read';
export * from './mqtt-publisher';
