export * from './line';
export * from './disinfection-record';
