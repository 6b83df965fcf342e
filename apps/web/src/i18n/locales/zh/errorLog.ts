/** Strings of the errorLog area. */
export const errorLog = {};
