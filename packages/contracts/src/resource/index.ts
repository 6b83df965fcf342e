export * from './define';
export * from './children';
export * from './validate';
export * from './menu-placement';
export * from './decimal';
export * from './json-schema';
export * from './calendar-day';
export * from './records';
