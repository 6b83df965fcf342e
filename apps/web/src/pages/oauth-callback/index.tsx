import { Button, Divider, Input } from 'antd';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { TokenResponse } from '@mes/contracts';
import { ApiError } from '../../api/http';
import {
  forgetSocial,
  linkSocialAccount,
  pendingSocial,
  signInWithSocial,
  type SocialNotLinked,
} from '../../api/social-auth';
import { CaptchaField, useCaptchaChallenge } from '../login/captcha-challenge';
import { completeSignIn } from '../login/complete-sign-in';
import { Field } from '../login/field';
import '../login/login.css';
import '../../i18n/social-more';
import { LoginNotice } from '../login/field';

const RegisterDialog = lazy(() => import('../../shell/register/register-dialog'));

/** The code is traded once per state, even if React runs the effect twice. */
const exchanges = new Map<string, Promise<TokenResponse>>();

type Outcome =
  | { kind: 'working' }
  | { kind: 'failed'; message: string }
  | { kind: 'notLinked'; tenantId: string; body: SocialNotLinked };

const notLinkedBody = (e: unknown): SocialNotLinked | undefined => {
  const body = e instanceof ApiError ? (e.body as Partial<SocialNotLinked> | undefined) : undefined;
  return body?.oauth_id ? (body as SocialNotLinked) : undefined;
};

/** Link an existing account: account and password, checked as at sign-in. */
function LinkForm({ tenantId, oauthId }: { tenantId: string; oauthId: string }) {
  const { t } = useTranslation('social');
  const navigate = useNavigate();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string; code?: string }>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  // Linking checks a password: the server may ask for a captcha as the sign-in page's does.
  const challenge = useCaptchaChallenge();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      account: account.trim() ? undefined : t('callbackAccountRequired'),
      password: password ? undefined : t('callbackPasswordRequired'),
      code: challenge.missing ? t('login:captchaRequired') : undefined,
    };
    setErrors(found);
    if (found.account || found.password || found.code) return;
    setBusy(true);
    setFailure('');
    try {
      const result = await linkSocialAccount({
        tenantId,
        oauthId,
        account: account.trim(),
        password,
        captcha: challenge.solved,
      });
      forgetSocial();
      completeSignIn(result, navigate);
    } catch (e) {
      setFailure(e instanceof ApiError ? e.message : String(e));
      challenge.afterFailure(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="social-link-form">
      <LoginNotice kind="error" testId="social-link-error">
        {failure}
      </LoginNotice>
      <Field label={t('callbackAccount')} error={errors.account}>
        <Input
          autoComplete="username"
          value={account}
          onChange={(e) => setAccount(e.target.value)}
          data-testid="social-link-account"
        />
      </Field>
      <Field label={t('callbackPassword')} error={errors.password}>
        <Input.Password
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="social-link-password"
        />
      </Field>
      <CaptchaField
        challenge={challenge}
        error={errors.code}
        onEdit={() => setErrors((e) => ({ ...e, code: undefined }))}
      />
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="social-link-submit">
        {t('callbackLink')}
      </Button>
    </form>
  );
}

/**
 * Where a provider sends the browser back (`code`, `state`, and `source` when the redirect URI
 * names it). The state must be the one this tab started with; the code is then traded at the
 * token endpoint (`grant_type=social`). A first-time user links an existing account or
 * registers (a pending account, linked once approved).
 */
export default function OAuthCallbackPage() {
  const { t } = useTranslation('social');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  const [registering, setRegistering] = useState(false);

  const code = params.get('code') ?? '';
  const state = params.get('state') ?? '';
  const providerError = params.get('error_description') || params.get('error') || '';
  const sourceParam = params.get('source') ?? '';

  useEffect(() => {
    let live = true;
    const report = (message: string) => live && setOutcome({ kind: 'failed', message });
    const pending = pendingSocial();
    if (providerError) {
      forgetSocial();
      report(t('callbackProviderError', { reason: providerError }));
      return;
    }
    if (!pending || !state || pending.state !== state || (sourceParam && sourceParam !== pending.source)) {
      report(t('callbackStateMismatch'));
      return;
    }
    let exchange = exchanges.get(state);
    if (!exchange) {
      exchange = signInWithSocial({ tenantId: pending.tenantId, source: pending.source, code, state });
      exchanges.set(state, exchange);
    }
    exchange
      .then((result) => {
        forgetSocial();
        if (live) completeSignIn(result, navigate);
      })
      .catch((e: unknown) => {
        forgetSocial();
        const body = notLinkedBody(e);
        if (!live) return;
        if (body) setOutcome({ kind: 'notLinked', tenantId: pending.tenantId, body });
        else report(e instanceof ApiError ? e.message : String(e));
      });
    return () => {
      live = false;
    };
  }, [code, state, sourceParam, providerError, navigate, t]);

  return (
    <div className="mes-login">
      <section className="mes-login-card" data-testid="oauth-callback">
        <h1 className="mes-login-heading">{t('callbackTitle')}</h1>
        <LoginNotice kind="info">{outcome.kind === 'working' && t('callbackWorking')}</LoginNotice>
        {outcome.kind === 'failed' && (
          <>
            <LoginNotice kind="error" testId="oauth-callback-error">
              {outcome.message}
            </LoginNotice>
            <Link to="/login">{t('callbackBack')}</Link>
          </>
        )}
        {outcome.kind === 'notLinked' && (
          <>
            <LoginNotice kind="info" testId="oauth-not-linked">
              {t('callbackNotLinked')}
              <br />
              {t('callbackProfile', { name: outcome.body.nickname || outcome.body.username })}
            </LoginNotice>
            <h2 className="mes-login-heading" style={{ fontSize: 15 }}>
              {t('callbackLinkTitle')}
            </h2>
            <LinkForm tenantId={outcome.tenantId} oauthId={outcome.body.oauth_id} />
            <Divider />
            <h2 className="mes-login-heading" style={{ fontSize: 15 }}>
              {t('callbackRegisterTitle')}
            </h2>
            <p style={{ color: 'rgba(0, 0, 0, 0.65)' }}>{t('callbackRegisterHint')}</p>
            <Button block onClick={() => setRegistering(true)} data-testid="social-register">
              {t('callbackRegister')}
            </Button>
            {registering && (
              <Suspense fallback={null}>
                <RegisterDialog
                  onClose={() => setRegistering(false)}
                  oauthId={outcome.body.oauth_id}
                  tenantId={outcome.tenantId}
                />
              </Suspense>
            )}
            <div style={{ marginTop: 12 }}>
              <Link to="/login">{t('callbackBack')}</Link>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
