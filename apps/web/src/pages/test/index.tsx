import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useScreenSize } from '../../engine/use-screen-size';
import { useSettings } from '../../shell/themes/settings-store';
import { themeColors } from '../../shell/themes/theme-colors';

/**
 * /test/index (spec section 2): a page for checking the shell on a device: the screen-size class
 * the layout uses, the language, theme and the colours derived from it.
 */
export default function TestPage() {
  const { t, i18n } = useTranslation();
  const screen = useScreenSize();
  const theme = useSettings((s) => s.theme);
  const color = useSettings((s) => s.color);
  const colors = themeColors(theme, color);
  const swatch = (value: string) => (
    <span className="mes-test-swatch">
      <span style={{ background: value }} aria-hidden /> {value}
    </span>
  );
  return (
    <div data-testid="test-page">
      <Typography.Title level={4}>{t('test')}</Typography.Title>
      <Card>
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label={t('testPage.screenSize')}>
            <span data-testid="test-screen-size">{screen}</span> ({window.innerWidth} × {window.innerHeight})
          </Descriptions.Item>
          <Descriptions.Item label={t('testPage.language')}>{i18n.language}</Descriptions.Item>
          <Descriptions.Item label={t('testPage.theme')}>{theme}</Descriptions.Item>
          <Descriptions.Item label={t('testPage.accent')}>{swatch(colors.accent)}</Descriptions.Item>
          <Descriptions.Item label={t('testPage.solid')}>{swatch(colors.solid)}</Descriptions.Item>
          <Descriptions.Item label={t('testPage.text')}>{swatch(colors.text)}</Descriptions.Item>
          <Descriptions.Item label={t('testPage.browser')} span={2}>
            {navigator.userAgent}
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
