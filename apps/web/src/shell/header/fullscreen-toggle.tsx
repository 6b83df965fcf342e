import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderToolButton } from './header-tool-button';

/** Header icon entering and leaving full screen; it follows Esc / F11 exits through fullscreenchange. */
export function FullscreenToggle() {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => Boolean(document.fullscreenElement));

  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggle = () => {
    // Browsers refuse full screen in some frames and without a user gesture; the icon then stays as it is.
    const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    void done.catch(() => undefined);
  };

  const label = full ? t('header:exitFullscreen') : t('header:fullscreen');
  return (
    <HeaderToolButton label={label} optional onClick={toggle} data-testid="fullscreen" data-fullscreen={full}>
      {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
    </HeaderToolButton>
  );
}
