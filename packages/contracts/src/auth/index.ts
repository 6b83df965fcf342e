export * from './button-codes';
export * from './oauth';
export * from './sign-in-limits';
