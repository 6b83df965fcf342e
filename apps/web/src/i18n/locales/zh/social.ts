export const social = {};
