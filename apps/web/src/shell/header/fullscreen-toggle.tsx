import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

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
    <Tooltip title={label}>
      <span
        className="mes-header-tool mes-hide-xs"
        data-testid="fullscreen"
        data-fullscreen={full}
        role="button"
        aria-label={label}
        onClick={toggle}
      >
        {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </span>
    </Tooltip>
  );
}
