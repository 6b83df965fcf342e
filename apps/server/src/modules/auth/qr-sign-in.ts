import { AuthMessages, type TokenResponse } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { ClientRow } from './client-auth';
import { OAuthError } from './oauth-error';

/** `grant_type=qr`: a QR sign-in session confirmed from a signed-in device. */
export async function signInWithQr(
  _ctx: AppContext,
  _client: ClientRow,
  _tenantId: string,
  _params: Record<string, string>,
): Promise<TokenResponse> {
  throw new OAuthError(400, AuthMessages.notConfigured);
}
