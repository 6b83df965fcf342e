export * from './device';
export * from './model-rules';
export * from './plc-variable';
export * from './product';
export * from './device-cycle';
export * from './device-row-fields';
export * from './model-enum';
export * from './maintenance';
