export * from './auth-paths';
export * from './button-codes';
export * from './oauth';
export * from './qr';
export * from './sign-in-limits';
