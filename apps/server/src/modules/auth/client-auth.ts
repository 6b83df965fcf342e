import { and, eq } from 'drizzle-orm';
import { authText, type GrantType } from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import { oauthClient } from '../../platform/db/schema';
import { verifyClientSecret } from '../../platform/auth/passwords';
import { OAuthError } from './oauth-error';

export type ClientRow = typeof oauthClient.$inferSelect;

/** Parses `Authorization: Basic base64(clientId:clientSecret)`. */
export function parseBasicAuth(header: string | undefined): { clientId: string; secret: string } | undefined {
  const m = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The client named by the Basic header, if its secret matches and it may use this grant. */
export async function authenticateClient(db: Db, header: string | undefined, grant: GrantType): Promise<ClientRow> {
  const credentials = parseBasicAuth(header);
  if (!credentials) throw new OAuthError(401, authText('unknownClient'));
  const rows = await db
    .select()
    .from(oauthClient)
    .where(and(eq(oauthClient.clientId, credentials.clientId), eq(oauthClient.isDeleted, 0), eq(oauthClient.status, 1)))
    .limit(1);
  const client = rows[0];
  if (!client || !verifyClientSecret(client.clientSecret, credentials.secret)) {
    throw new OAuthError(401, authText('unknownClient'));
  }
  const allowed = client.authorizedGrantTypes.split(',').map((g) => g.trim());
  if (!allowed.includes(grant)) throw new OAuthError(401, authText('grantNotAllowed'));
  return client;
}
