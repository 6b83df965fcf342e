import { AuthMessages, type TokenResponse } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { ClientRow } from './client-auth';
import { OAuthError } from './oauth-error';

/** `grant_type=social`: source, code and state from a tenant's OAuth2 / OIDC provider. */
export async function signInWithSocial(
  _ctx: AppContext,
  _client: ClientRow,
  _tenantId: string,
  _params: Record<string, string>,
): Promise<TokenResponse> {
  throw new OAuthError(400, AuthMessages.notConfigured);
}
