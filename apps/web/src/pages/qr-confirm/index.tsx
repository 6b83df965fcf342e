import { Button, Card, Descriptions, Result, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/http';
import { cancelQr, confirmQr, scanQr, type QrScanView } from '../../api/qr-auth';
import { displayName, useSession } from '../../session/session-store';
import '../../i18n/social-more';

type Step =
  | { kind: 'loading' }
  | { kind: 'ask'; view: QrScanView; receivedAt: number }
  | { kind: 'done' }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/**
 * Where the QR code of another device's sign-in page leads (`/qr-confirm?code=`). Opening it
 * marks the code scanned; the signed-in user then confirms (that device signs in as this user)
 * or cancels. The request's address, browser and time are shown so a user can recognise a
 * code that someone else put in front of them.
 */
export default function QrConfirmPage() {
  const { t } = useTranslation('social');
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const user = useSession((s) => s.userInfo);
  // Opening marks the code scanned: asked once for this code, never again on its own.
  const scan = useQuery({
    queryKey: ['qr-scan', code],
    queryFn: async () => ({ view: await scanQr(code), receivedAt: Date.now() }),
    enabled: !!code,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    meta: { silent: true },
  });
  // What confirming or cancelling led to; until then the step is the scan's.
  const [acted, setStep] = useState<Step>();
  const step: Step =
    acted ??
    (!code
      ? { kind: 'failed', message: t('confirmNoCode') }
      : scan.isError
        ? { kind: 'failed', message: messageOf(scan.error) }
        : scan.data
          ? { kind: 'ask', ...scan.data }
          : { kind: 'loading' });
  const [busy, setBusy] = useState<'confirm' | 'cancel'>();
  const [now, setNow] = useState(() => Date.now());

  const asking = step.kind === 'ask';
  useEffect(() => {
    if (!asking) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [asking]);

  const act = async (kind: 'confirm' | 'cancel') => {
    setBusy(kind);
    try {
      await (kind === 'confirm' ? confirmQr(code) : cancelQr(code));
      setStep({ kind: kind === 'confirm' ? 'done' : 'cancelled' });
    } catch (e) {
      setStep({ kind: 'failed', message: messageOf(e) });
    } finally {
      setBusy(undefined);
    }
  };

  let body;
  if (step.kind === 'loading') body = <Spin style={{ display: 'block', padding: 48 }} />;
  else if (step.kind === 'done')
    body = (
      <div data-testid="qr-confirm-done">
        <Result status="success" title={t('confirmDone')} />
      </div>
    );
  else if (step.kind === 'cancelled')
    body = (
      <div data-testid="qr-confirm-cancelled">
        <Result status="info" title={t('confirmCancelled')} />
      </div>
    );
  else if (step.kind === 'failed')
    body = (
      <div data-testid="qr-confirm-failed">
        <Result status="warning" title={step.message} />
      </div>
    );
  else {
    const left = Math.max(0, step.view.expiresIn - Math.floor((now - step.receivedAt) / 1000));
    body = (
      <>
        <p>{t('confirmQuestion')}</p>
        <Descriptions
          column={1}
          size="small"
          bordered
          style={{ marginBottom: 24 }}
          styles={{ label: { whiteSpace: 'nowrap', width: 96 } }}
        >
          <Descriptions.Item label={t('confirmAccount')}>{displayName(user)}</Descriptions.Item>
          <Descriptions.Item label={t('confirmTenant')}>{step.view.tenantId}</Descriptions.Item>
          <Descriptions.Item label={t('confirmIp')}>{step.view.requestIp}</Descriptions.Item>
          <Descriptions.Item label={t('confirmAgent')}>{step.view.requestAgent}</Descriptions.Item>
          <Descriptions.Item label={t('confirmTime')}>{step.view.requestTime}</Descriptions.Item>
          <Descriptions.Item label={t('confirmExpires')}>{t('confirmSeconds', { seconds: left })}</Descriptions.Item>
        </Descriptions>
        <Space>
          <Button
            type="primary"
            loading={busy === 'confirm'}
            disabled={busy !== undefined || left === 0}
            onClick={() => void act('confirm')}
            data-testid="qr-confirm-ok"
          >
            {t('confirmOk')}
          </Button>
          <Button
            loading={busy === 'cancel'}
            disabled={busy !== undefined}
            onClick={() => void act('cancel')}
            data-testid="qr-confirm-cancel"
          >
            {t('confirmCancel')}
          </Button>
        </Space>
      </>
    );
  }

  return (
    <div style={{ padding: 16, display: 'flex', justifyContent: 'center' }} data-testid="qr-confirm">
      <Card title={t('confirmHeading')} style={{ width: '100%', maxWidth: 560 }}>
        {body}
      </Card>
    </div>
  );
}
