export * from './article';
export * from './car';
export * from './line';
export * from './oenmo';
export * from './pack-material';
