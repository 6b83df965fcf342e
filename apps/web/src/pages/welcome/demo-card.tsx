import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Col, Progress, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_TENANT_ID,
  DEMO_STEP_LABELS,
  DEMO_TENANT_DISMISS_PATH,
  DEMO_TENANT_SEED_PATH,
  DEMO_TENANT_STATE_PATH,
  type DemoSeedReply,
  type DemoTenantStatus,
} from '@mes/contracts';
import { apiKey, apiPost, apiQuery } from '../../api/server-state';
import { useSession } from '../../session/session-store';

const POLL_MS = 1_000;

/** Only the platform's super administrator is offered the demo tenant (docs/demo.md). */
function usePlatformAdministrator(): boolean {
  const tenantId = useSession((s) => s.userInfo.tenant_id ?? s.userInfo.tenantId);
  const roles = useSession((s) => s.roles);
  const roleName = useSession((s) => String(s.userInfo.role_name ?? ''));
  return (
    tenantId === DEFAULT_TENANT_ID && (roles.includes('administrator') || roleName.split(',').includes('administrator'))
  );
}

/**
 * The one-time offer on a fresh install: tick 创建演示租户 (off by default) and confirm, and the
 * server fills the demo tenant as a job whose progress shows here; the password of its
 * administrator is shown once. Declined or done, the card is gone for good. A column of the
 * welcome page's row, or nothing.
 */
export function DemoTenantCard() {
  const { t, i18n } = useTranslation('wel');
  const admin = usePlatformAdministrator();
  const client = useQueryClient();
  const [ticked, setTicked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<DemoSeedReply | null>(null);
  const query = useQuery({
    ...apiQuery<DemoTenantStatus>(DEMO_TENANT_STATE_PATH, undefined, { silent: true }),
    enabled: admin,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? POLL_MS : false),
  });
  const status = query.data;
  if (!admin || !status) return null;
  const { state } = status;
  // Once done or dismissed it stays away; a run started on this page shows its end here.
  if (state === 'none' || state === 'dismissed' || (state === 'done' && !started)) return null;

  const reload = () => client.invalidateQueries({ queryKey: apiKey(DEMO_TENANT_STATE_PATH) });
  const confirm = async () => {
    setBusy(true);
    try {
      const reply = await apiPost<DemoSeedReply>(DEMO_TENANT_SEED_PATH, { confirm: true });
      setStarted(reply);
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const dismiss = async () => {
    setBusy(true);
    try {
      await apiPost(DEMO_TENANT_DISMISS_PATH, {});
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const stepLabel = status.step ? (DEMO_STEP_LABELS[status.step]?.[lang] ?? status.step) : '';
  const percent = status.of ? Math.round(((status.done ?? 0) / status.of) * 100) : 0;

  return (
    <Col xs={24}>
      <Card title={t('demo.title')} className="mes-wel-card" data-testid="wel-demo">
        <Space direction="vertical" style={{ width: '100%' }}>
          {state === 'offered' || state === 'failed' ? (
            <>
              <Typography.Paragraph style={{ marginBottom: 0 }}>{t('demo.intro')}</Typography.Paragraph>
              {state === 'failed' ? (
                <Alert
                  type="error"
                  showIcon
                  message={t('demo.failed', { step: stepLabel })}
                  description={status.error}
                />
              ) : null}
              <Checkbox checked={ticked} onChange={(e) => setTicked(e.target.checked)} data-testid="wel-demo-tick">
                {t('demo.tick')}
              </Checkbox>
              <Space>
                <Button
                  type="primary"
                  disabled={!ticked}
                  loading={busy}
                  onClick={() => void confirm()}
                  data-testid="wel-demo-confirm"
                >
                  {t('demo.confirm')}
                </Button>
                <Button disabled={busy} onClick={() => void dismiss()} data-testid="wel-demo-dismiss">
                  {t('demo.dismiss')}
                </Button>
              </Space>
            </>
          ) : null}
          {state === 'running' ? (
            <div data-testid="wel-demo-running">
              <Typography.Text>{t('demo.running', { step: stepLabel })}</Typography.Text>
              <Progress percent={percent} status="active" />
            </div>
          ) : null}
          {state === 'done' ? (
            <Alert
              type="success"
              showIcon
              data-testid="wel-demo-done"
              message={t('demo.done', { tenantId: status.tenantId ?? started?.tenantId ?? '' })}
              description={
                <Space direction="vertical" size={0}>
                  <span>
                    {t('demo.counts', {
                      devices: status.counts?.devices ?? 0,
                      cycles: status.counts?.cycles ?? 0,
                      records: status.counts?.records ?? 0,
                      simulate: status.simulate ?? 'npm run simulate',
                    })}
                  </span>
                  <span>
                    {t('demo.signInAt')}{' '}
                    <Typography.Text code copyable data-testid="wel-demo-sign-in-url">
                      {`${window.location.origin}/login?tenantId=${status.tenantId ?? started?.tenantId ?? ''}`}
                    </Typography.Text>
                  </span>
                </Space>
              }
            />
          ) : null}
          {started?.password ? (
            <Alert
              type="info"
              showIcon
              data-testid="wel-demo-password"
              message={t('demo.password', { tenantId: started.tenantId, account: started.account })}
              description={
                <Space direction="vertical" size={0}>
                  <Typography.Text code copyable data-testid="wel-demo-password-value">
                    {started.password}
                  </Typography.Text>
                  <Typography.Text type="secondary">{t('demo.passwordOnce')}</Typography.Text>
                </Space>
              }
            />
          ) : null}
          {started && !started.password ? <Alert type="info" showIcon message={t('demo.existed')} /> : null}
        </Space>
      </Card>
    </Col>
  );
}
