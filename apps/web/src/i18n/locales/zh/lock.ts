/** Strings of the lock area. */
export const lock = {};
