import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The user the provider signs in without asking (auto-approve). */
export interface ProviderUser {
  id: string;
  login: string;
  name: string;
  email: string;
  avatar: string;
}

type Shape = 'oidc' | 'github' | 'gitee';

interface IssuedCode {
  shape: Shape;
  clientId: string;
  redirectUri: string;
  challenge?: string;
  user: ProviderUser;
}

/**
 * A local OAuth2 / OpenID Connect provider for the social sign-in tests, with GitHub- and
 * Gitee-shaped endpoints beside the generic ones. It approves every authorisation request for
 * `user`, and checks at the token endpoint what a real provider checks: client credentials, a
 * single-use code issued to that client, the same redirect URI, and PKCE when it was used.
 */
export class OAuthTestServer {
  user: ProviderUser = { id: '1001', login: 'octo', name: 'Octo Cat', email: 'octo@example.com', avatar: '' };
  /** Token requests seen, for assertions on how the server authenticated itself. */
  readonly tokenRequests: { path: string; authorization: string; form: Record<string, string> }[] = [];
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, ProviderUser>();
  private server: http.Server | undefined;
  private port = 0;

  constructor(private readonly clients: Record<string, string>) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch(() => {
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /**
   * Follows an authorize URL as the browser would and returns what the provider sends back to
   * the redirect URI (`code` and `state`, or `error`).
   */
  async authorize(url: string): Promise<{ code: string; state: string; redirect: URL }> {
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`authorize failed: ${res.status} ${await res.text()}`);
    const redirect = new URL(location);
    return {
      code: redirect.searchParams.get('code') ?? '',
      state: redirect.searchParams.get('state') ?? '',
      redirect,
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /authorize':
        return this.authorizeEndpoint(url, res, 'oidc');
      case 'GET /login/oauth/authorize':
        return this.authorizeEndpoint(url, res, 'github');
      case 'GET /oauth/authorize':
        return this.authorizeEndpoint(url, res, 'gitee');
      case 'POST /token':
        return this.tokenEndpoint(req, res, 'oidc', await readForm(req));
      case 'POST /login/oauth/access_token':
        return this.tokenEndpoint(req, res, 'github', await readForm(req));
      case 'POST /oauth/token':
        return this.tokenEndpoint(req, res, 'gitee', await readForm(req));
      case 'GET /userinfo':
        return this.userEndpoint(res, 'oidc', bearer(req));
      case 'GET /user':
        return this.userEndpoint(res, 'github', bearer(req));
      case 'GET /api/v5/user':
        return this.userEndpoint(res, 'gitee', url.searchParams.get('access_token') ?? '');
      default:
        return json(res, 404, { error: 'not_found' });
    }
  }

  private authorizeEndpoint(url: URL, res: http.ServerResponse, shape: Shape): void {
    const q = url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('response_type') !== 'code' || !this.clients[clientId] || !redirectUri)
      return json(res, 400, { error: 'invalid_request' });
    if (q.get('code_challenge') && q.get('code_challenge_method') !== 'S256')
      return json(res, 400, { error: 'invalid_request' });
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, {
      shape,
      clientId,
      redirectUri,
      challenge: q.get('code_challenge') ?? undefined,
      user: { ...this.user },
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: back.toString() }).end();
  }

  private tokenEndpoint(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    shape: Shape,
    form: Record<string, string>,
  ) {
    const authorization = req.headers.authorization ?? '';
    this.tokenRequests.push({ path: shape, authorization, form });
    // OIDC clients authenticate with client_secret_basic; GitHub and Gitee take them in the body.
    let clientId = form.client_id ?? '';
    let secret = form.client_secret ?? '';
    if (shape === 'oidc') {
      const decoded = Buffer.from(authorization.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const refuse = (status: number, error: string, description: string) =>
      // GitHub reports token errors with status 200.
      json(res, shape === 'github' ? 200 : status, { error, error_description: description });
    if (!this.clients[clientId] || this.clients[clientId] !== secret)
      return refuse(401, 'invalid_client', 'Client authentication failed');
    if (shape !== 'github' && form.grant_type !== 'authorization_code')
      return refuse(400, 'unsupported_grant_type', 'grant_type must be authorization_code');
    const issued = this.codes.get(form.code ?? '');
    this.codes.delete(form.code ?? '');
    if (!issued || issued.shape !== shape || issued.clientId !== clientId)
      return refuse(
        400,
        shape === 'github' ? 'bad_verification_code' : 'invalid_grant',
        'The code is incorrect or expired',
      );
    if (issued.redirectUri !== form.redirect_uri) return refuse(400, 'invalid_grant', 'redirect_uri mismatch');
    if (issued.challenge) {
      const verifier = form.code_verifier ?? '';
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (computed !== issued.challenge) return refuse(400, 'invalid_grant', 'PKCE verification failed');
    }
    const accessToken = randomBytes(16).toString('hex');
    this.tokens.set(accessToken, issued.user);
    return json(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
  }

  private userEndpoint(res: http.ServerResponse, shape: Shape, token: string): void {
    const u = this.tokens.get(token);
    if (!u) return json(res, 401, { message: 'Bad credentials' });
    if (shape === 'oidc')
      return json(res, 200, {
        sub: u.id,
        preferred_username: u.login,
        name: u.name,
        email: u.email,
        picture: u.avatar,
      });
    // GitHub and Gitee: numeric ids, `login`, `avatar_url`.
    return json(res, 200, { id: Number(u.id), login: u.login, name: u.name, email: u.email, avatar_url: u.avatar });
  }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function bearer(req: http.IncomingMessage): string {
  const m = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1] ?? '';
}

async function readForm(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}
