export * from './article';
export * from './car';
export * from './disinfection-record';
export * from './line';
export * from './oenmo';
export * from './pack-material';
export * from './verification-record';
export * from './disinfection-ledger';
