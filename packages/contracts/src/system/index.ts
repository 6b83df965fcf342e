export * from './menu';
export * from './menu-groups';
export * from './dictionaries';
