export const storage = {};
