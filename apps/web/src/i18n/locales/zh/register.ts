/** Strings of the register area. */
export const register = {};
