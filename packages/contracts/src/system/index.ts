export * from './menu';
export * from '../engine/menu-groups';
export * from './dictionaries';
