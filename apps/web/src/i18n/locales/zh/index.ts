import { common } from './common';
import { errorLog } from './errorLog';
import { lock } from './lock';
import { login } from './login';
import { register } from './register';
import { social } from './social';

/**
 * One namespace per area; the `en` file of each area is typed by its `zh` file, so both stay complete.
 * The pages shown before sign-in (sign-in, lock, registration, the OAuth callback, the error pages)
 * need only these; they come with the first load.
 */
export const signInResources = {
  common,
  login,
  lock,
  errorLog,
  register,
  social,
};
