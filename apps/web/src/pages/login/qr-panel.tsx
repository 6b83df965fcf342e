import { Button } from 'antd';
import { Input } from '../../shell/controls/light-input';
import { useCallback, useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TokenResponse } from '@mes/contracts';
import { ApiError } from '../../api/http';
import { createQrSession, fetchQrStatus, signInWithQr, type QrSession, type QrStatus } from '../../api/qr-auth';
import { website } from '../../config/website';
import { completeSignIn } from './complete-sign-in';
import '../../i18n/social-more';
import { LoginNotice } from './field';

const POLL_MS = 2000;
const SIZE = 200;

type Shown = QrStatus | 'loading';

/**
 * One sign-in per confirmed code, even when React runs the effect twice (StrictMode) or the
 * panel re-renders while the reply is on its way: the code can be traded only once.
 */
const signingIn = new Map<string, Promise<TokenResponse>>();
function signInOnce(session: QrSession): Promise<TokenResponse> {
  let pending = signingIn.get(session.code);
  if (!pending) {
    pending = signInWithQr(session.tenantId, session.code, session.state);
    signingIn.set(session.code, pending);
  }
  return pending;
}

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

const box: CSSProperties = { position: 'relative', width: SIZE, height: SIZE, margin: '0 auto 12px' };
const overlay: CSSProperties = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 12,
  background: 'rgba(255, 255, 255, 0.92)',
  fontWeight: 600,
};
const centered: CSSProperties = { textAlign: 'center', color: 'rgba(0, 0, 0, 0.65)', marginBottom: 4 };

/**
 * The 扫码登录 panel: a QR code of a short-lived session that a signed-in device confirms
 * (docs/sign-in.md). It polls every two seconds, counts down, and signs in once confirmed.
 * Plain elements and antd Button/Input only: this panel is part of /login's first load.
 */
export default function QrPanel() {
  const { t } = useTranslation('social');
  const navigate = useNavigate();
  const [tenantId, setTenantId] = useState<string>(website.tenantId);
  // Each request (first load, 刷新二维码) is a new object, so asking again for the same tenant reloads.
  const [requested, setRequested] = useState<{ tenantId: string }>(() => ({ tenantId: website.tenantId }));
  const [session, setSession] = useState<QrSession>();
  const [status, setStatus] = useState<Shown>('loading');
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState('');

  const refresh = useCallback(() => {
    setStatus('loading');
    setError('');
    setSession(undefined);
    setRequested({ tenantId: tenantId.trim() || website.tenantId });
  }, [tenantId]);

  useEffect(() => {
    let live = true;
    createQrSession(requested.tenantId)
      .then((created) => {
        if (!live) return;
        setSession(created);
        setStatus('waiting');
        setNow(Date.now());
        setDeadline(Date.now() + created.expiresIn * 1000);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setSession(undefined);
        setError(messageOf(e));
        setStatus('expired');
      });
    return () => {
      live = false;
    };
  }, [requested]);

  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  const open = status === 'waiting' || status === 'scanned';
  const shown: Shown = open && secondsLeft === 0 ? 'expired' : status;

  // Poll and count down while the code can still be scanned or confirmed.
  useEffect(() => {
    if (!session || (shown !== 'waiting' && shown !== 'scanned')) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const poll = () => {
      timer = setTimeout(() => {
        fetchQrStatus(session.code, session.state)
          .then((view) => {
            if (!live) return;
            setStatus(view.status);
            poll();
          })
          .catch((e: unknown) => {
            if (!live) return;
            setError(messageOf(e));
            setStatus('expired');
          });
      }, POLL_MS);
    };
    poll();
    return () => {
      live = false;
      clearInterval(tick);
      clearTimeout(timer);
    };
  }, [session, shown]);

  useEffect(() => {
    if (!session || status !== 'confirmed') return;
    let live = true;
    signInOnce(session)
      .then((result) => live && completeSignIn(result, navigate))
      .catch((e: unknown) => {
        if (!live) return;
        setError(messageOf(e));
        setStatus('expired');
      });
    return () => {
      live = false;
    };
  }, [session, status, navigate]);

  const statusText: Record<Shown, string> = {
    loading: t('qrLoading'),
    waiting: t('qrWaiting'),
    scanned: t('qrScanned'),
    confirmed: t('qrConfirmed'),
    expired: t('qrExpired'),
    cancelled: t('qrCancelled'),
  };
  const ended = shown === 'expired' || shown === 'cancelled';

  return (
    <div data-testid="qr-panel">
      <LoginNotice kind="error" testId="qr-error">
        {error}
      </LoginNotice>
      {website.tenantMode && (
        <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
          <Input
            value={tenantId}
            onChange={(e) => setTenantId(e.target.value)}
            onPressEnter={refresh}
            aria-label={t('confirmTenant')}
          />
          <Button onClick={refresh}>{t('qrGenerate')}</Button>
        </div>
      )}
      <div style={box}>
        {session && (
          <img
            src={session.image}
            alt={t('qrAlt')}
            width={SIZE}
            height={SIZE}
            data-testid="qr-image"
            data-link={session.link}
            style={{ display: 'block', opacity: ended ? 0.25 : 1 }}
          />
        )}
        {(ended || !session) && (
          <div style={overlay}>
            <span>{statusText[shown]}</span>
            {ended && (
              <Button type="primary" onClick={refresh} data-testid="qr-refresh">
                {t('qrRefresh')}
              </Button>
            )}
          </div>
        )}
      </div>
      <div style={centered} role="status" data-testid="qr-status" data-status={shown}>
        {ended || shown === 'loading' ? '' : statusText[shown]}
      </div>
      {open && secondsLeft > 0 && (
        <div style={{ ...centered, fontSize: 13 }} data-testid="qr-countdown">
          {t('qrCountdown', { seconds: secondsLeft })}
        </div>
      )}
      <div style={{ ...centered, fontSize: 13 }}>{t('qrHint')}</div>
    </div>
  );
}
