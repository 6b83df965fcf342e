export const sms = {};
