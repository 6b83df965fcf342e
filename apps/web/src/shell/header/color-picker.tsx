import { BgColorsOutlined } from '@ant-design/icons';
import { Button, ColorPicker as AntColorPicker, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { website } from '../../config/website';
import { useSettings } from '../themes/settings-store';
import { PRESET_COLORS } from '../themes/themes';
import { activateOnKey } from './key-activate';

/** Header icon opening a colour panel with preset swatches; the colour becomes antd's primary colour. */
export function ColorPicker() {
  const { t } = useTranslation();
  const color = useSettings((s) => s.color);
  const setColor = useSettings((s) => s.setColor);

  return (
    <AntColorPicker
      value={color}
      disabledAlpha
      presets={[{ label: t('header:presetColors'), colors: [...PRESET_COLORS], defaultOpen: true }]}
      onChangeComplete={(value) => setColor(value.toHexString().toUpperCase())}
      panelRender={(panel) => (
        <div data-testid="color-panel">
          {panel}
          <Button
            type="primary"
            size="small"
            block
            style={{ marginTop: 8 }}
            data-testid="color-reset"
            disabled={color === website.defaultColor}
            onClick={() => setColor(website.defaultColor)}
          >
            {t('header:resetColor')}
          </Button>
        </div>
      )}
    >
      <Tooltip title={t('header:color')}>
        <span
          className="mes-header-tool mes-hide-xs"
          data-testid="color-picker"
          role="button"
          tabIndex={0}
          aria-haspopup="dialog"
          aria-label={t('header:color')}
          onKeyDown={activateOnKey}
        >
          <BgColorsOutlined />
        </span>
      </Tooltip>
    </AntColorPicker>
  );
}
