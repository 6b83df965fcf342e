import { CheckCircleFilled, SkinOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../themes/settings-store';
import { THEMES } from '../themes/themes';
import '../themes/themes.css';
import './header-tools.css';
import { HeaderToolButton } from './header-tool-button';

/** Header icon opening a dialog of the eleven themes; a choice applies at once and is remembered. */
export function ThemePicker() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const current = useSettings((s) => s.theme);
  const setTheme = useSettings((s) => s.setTheme);

  return (
    <>
      <HeaderToolButton label={t('header:theme')} optional onClick={() => setOpen(true)} data-testid="theme-picker">
        <SkinOutlined />
      </HeaderToolButton>
      <Modal
        open={open}
        title={t('header:themePicker')}
        width={720}
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" onClick={() => setOpen(false)} data-testid="theme-done">
            {t('header:done')}
          </Button>
        }
      >
        <div className="mes-theme-grid" data-testid="theme-list">
          {THEMES.map((name) => {
            const label = t(`header:${name.replace('theme-', 'theme_')}`);
            const selected = name === current;
            return (
              <button
                type="button"
                key={name}
                className={`mes-theme-option${selected ? ' is-current' : ''}`}
                data-testid={`theme-option-${name}`}
                aria-pressed={selected}
                title={selected ? `${label} (${t('header:themeCurrent')})` : label}
                onClick={() => setTheme(name)}
              >
                {/* The preview carries the theme's class, so themes.css paints it in the theme's real colours. */}
                <span className={`mes-theme-preview ${name}`} aria-hidden>
                  <span className="mes-theme-preview-sider">
                    <span className="mes-theme-preview-logo" />
                    <span className="mes-theme-preview-item" />
                    <span className="mes-theme-preview-item is-active" />
                    <span className="mes-theme-preview-item" />
                  </span>
                  <span className="mes-theme-preview-main">
                    <span className="mes-theme-preview-header" />
                    <span className="mes-theme-preview-tabs">
                      <span className="mes-theme-preview-tab is-active" />
                      <span className="mes-theme-preview-tab" />
                    </span>
                    <span className="mes-theme-preview-content" />
                  </span>
                </span>
                <span className="mes-theme-name">
                  {selected && <CheckCircleFilled className="mes-theme-check" />} {label}
                </span>
              </button>
            );
          })}
        </div>
      </Modal>
    </>
  );
}
