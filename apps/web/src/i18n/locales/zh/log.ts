export const log = {};
