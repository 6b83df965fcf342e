import { type TokenResponse, UserStatus } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { consumeSignInCode, phoneProblem, usersWithPhone } from '../providers/sms/sign-in-codes';
import { SmsMessages } from '../providers/sms/sms-messages';
import type { ClientRow } from './client-auth';
import { OAuthError } from './oauth-error';
import { issueFor } from './sign-in';

/**
 * `grant_type=sms`: phone and a code sent by `POST /api/alisms/send`, in the tenant of the
 * request. The code is checked (and used up) before anything about the account is said, so
 * only the phone's owner learns why an account cannot sign in.
 */
export async function signInWithSms(
  ctx: AppContext,
  client: ClientRow,
  tenantId: string,
  params: Record<string, string>,
): Promise<TokenResponse> {
  const phone = (params.phone ?? '').trim();
  const code = (params.code ?? '').trim();
  const problem = phoneProblem(phone);
  if (problem) throw new OAuthError(400, problem);
  if (!code) throw new OAuthError(400, SmsMessages.codeRequired);

  const checked = await consumeSignInCode(ctx, tenantId, phone, code);
  if (!checked.ok) throw new OAuthError(400, checked.message);

  const found = await usersWithPhone(ctx, tenantId, phone);
  if (!found.length) throw new OAuthError(400, SmsMessages.noAccount);
  if (found.length > 1) throw new OAuthError(400, SmsMessages.severalAccounts);
  const account = found[0] as (typeof found)[number];
  if (account.status === UserStatus.pending) throw new OAuthError(400, SmsMessages.pending);
  // Disabled accounts, expired tenants and accounts without roles are refused here as for passwords.
  return issueFor(ctx, client, account);
}
