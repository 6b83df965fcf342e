/** The registration form (spec section 3 "Register form"). */
export interface RegisterForm {
  tenantId?: string;
  name?: string;
  account?: string;
  password?: string;
  password2?: string;
}

export type RegisterProblem = 'tenantRequired' | 'accountRequired' | 'passwordRequired' | 'passwordMismatch';

const blank = (v: string | undefined) => !v || v.trim() === '';

/**
 * Spec section 5: the checks run in this order and the first failing one is reported. The
 * tenant code counts only while its field is shown.
 */
export function registrationProblem(form: RegisterForm, tenantShown: boolean): RegisterProblem | undefined {
  if (tenantShown && blank(form.tenantId)) return 'tenantRequired';
  if (blank(form.account)) return 'accountRequired';
  if (!form.password || !form.password2) return 'passwordRequired';
  if (form.password !== form.password2) return 'passwordMismatch';
  return undefined;
}
