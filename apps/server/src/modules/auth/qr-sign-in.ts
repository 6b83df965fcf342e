import { authText, type TokenResponse } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { findUserById } from '../user/user-repository';
import type { ClientRow } from './client-auth';
import { OAuthError } from './oauth-error';
import { QrError, QrSessions } from './qr/qr-session';
import { issueFor } from './sign-in';

/**
 * `grant_type=qr` (also `POST /api/blade-auth/oauth/qrlogin`): trades a QR session confirmed on a
 * signed-in device, with the state the sign-in page was given, for tokens of the user who
 * confirmed it. A session signs in once.
 */
export async function signInWithQr(
  ctx: AppContext,
  client: ClientRow,
  tenantId: string,
  params: Record<string, string>,
): Promise<TokenResponse> {
  let confirmed: { tenantId: string; userId: string };
  try {
    confirmed = await new QrSessions(ctx).consume(tenantId, params.code, params.state);
  } catch (e) {
    if (e instanceof QrError) throw new OAuthError(400, e.text);
    throw e;
  }
  const found = await findUserById(ctx.db, confirmed.tenantId, confirmed.userId);
  if (!found) throw new OAuthError(400, authText('badCredentials'));
  return issueFor(ctx, client, found);
}
