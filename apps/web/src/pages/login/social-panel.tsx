import { ApiOutlined, GithubOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Input } from '../../shell/controls/light-input';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { fetchSocialSources, rememberSocial, renderSocial, type SocialSource } from '../../api/social-auth';
import { website } from '../../config/website';
import '../../i18n/social-more';
import { LoginNotice } from './field';

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

const icons: Record<SocialSource['category'], ReactNode> = {
  github: <GithubOutlined />,
  gitee: <ApiOutlined />,
  oidc: <ApiOutlined />,
};

/**
 * The 第三方账号 panel: the tenant's enabled providers as buttons. A click asks the server for
 * the provider's authorize URL (with a single-use state), remembers the attempt in this tab and
 * sends the browser there; the provider comes back to /oauth/callback.
 */
export default function SocialPanel() {
  const { t } = useTranslation('social');
  const [tenantId, setTenantId] = useState<string>(website.tenantId);
  const [loadedFor, setLoadedFor] = useState<string>(website.tenantId);
  const [loaded, setLoaded] = useState<{ tenantId: string; sources: SocialSource[]; error: string }>();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    fetchSocialSources(loadedFor)
      .then((sources) => live && setLoaded({ tenantId: loadedFor, sources, error: '' }))
      .catch((e: unknown) => live && setLoaded({ tenantId: loadedFor, sources: [], error: messageOf(e) }));
    return () => {
      live = false;
    };
  }, [loadedFor]);

  const current = loaded?.tenantId === loadedFor ? loaded : undefined;

  const go = async (source: SocialSource) => {
    setBusy(source.source);
    setError('');
    try {
      const render = await renderSocial(source.source, loadedFor);
      rememberSocial({ state: render.state, source: render.source, tenantId: loadedFor });
      window.location.assign(render.url);
    } catch (e) {
      setError(messageOf(e));
      setBusy(undefined);
    }
  };

  const shownError = error || current?.error;
  return (
    <div data-testid="social-panel">
      {website.tenantMode && (
        <Input
          style={{ marginBottom: 12 }}
          value={tenantId}
          aria-label={t('confirmTenant')}
          onChange={(e) => setTenantId(e.target.value)}
          onBlur={() => setLoadedFor(tenantId.trim() || website.tenantId)}
          onPressEnter={() => setLoadedFor(tenantId.trim() || website.tenantId)}
        />
      )}
      <LoginNotice kind="error" testId="social-error">
        {shownError}
      </LoginNotice>
      <LoginNotice kind="info">{!current && t('socialLoading')}</LoginNotice>
      <LoginNotice kind="info" testId="social-none">
        {current && !current.sources.length && !current.error && t('socialNone')}
      </LoginNotice>
      {current?.sources.map((s) => (
        <Button
          key={s.source}
          block
          icon={icons[s.category]}
          loading={busy === s.source}
          disabled={busy !== undefined && busy !== s.source}
          onClick={() => void go(s)}
          style={{ marginBottom: 8 }}
          data-testid={`social-${s.source}`}
        >
          {busy === s.source ? t('socialRedirecting') : t('socialWith', { name: s.name })}
        </Button>
      ))}
    </div>
  );
}
