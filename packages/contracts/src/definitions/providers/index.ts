export * from './attach';
export * from './oss';
export * from './sms';
export * from './social-source';
