import { Card, Col, Row, Statistic, theme, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { WelcomeOverview } from '@mes/contracts';

/** A rate 0..1 as a percentage with one decimal, or a dash while there is nothing to rate. */
export const percent = (rate: number | null | undefined) => (rate == null ? '–' : `${(rate * 100).toFixed(1)}%`);

interface FigureProps {
  title: ReactNode;
  value: number | string;
  testId: string;
  color?: string;
  suffix?: ReactNode;
}

function Figure({ title, value, testId, color, suffix }: FigureProps) {
  return (
    <Card size="small" className="mes-wel-figure">
      <Statistic
        title={title}
        value={value}
        suffix={suffix}
        valueStyle={color ? { color } : undefined}
        data-testid={testId}
      />
    </Card>
  );
}

/**
 * The welcome figures, the equipment's first: devices, cycles, open warnings and the
 * verification records (today's BD test and release of the sterilisers, open recalls); then
 * chairs, personnel and fixed assets. `data` undefined
 * while loading: dashes hold the places so the page does not jump.
 */
export function OverviewFigures({ data, wall }: { data: WelcomeOverview | undefined; wall?: boolean }) {
  const { t } = useTranslation('wel');
  const { token } = theme.useToken();
  const v = (pick: (d: WelcomeOverview) => number) => (data ? pick(data) : '–');
  const tiles: FigureProps[] = [
    { title: t('figures.devices'), value: v((d) => d.devices.total), testId: 'wel-device-counts-total' },
    {
      title: t('figures.online'),
      value: v((d) => d.devices.online),
      testId: 'wel-device-counts-online',
      // The text shade: the plain green on white is 2.3:1, under WCAG AA's 3:1 for large text.
      color: token.colorSuccessText,
    },
    {
      title: t('figures.fault'),
      value: v((d) => d.devices.fault),
      testId: 'wel-device-counts-fault',
      color: token.colorError,
    },
    { title: t('figures.cyclesToday'), value: v((d) => d.cycles.today), testId: 'wel-fig-cycles-today' },
    { title: t('figures.cyclesTotal'), value: v((d) => d.cycles.total), testId: 'wel-fig-cycles-total' },
    {
      title: t('figures.passRate'),
      value: data ? percent(data.cycles.passRate) : '–',
      testId: 'wel-fig-pass-rate',
      // The text shade: the plain green on white is 2.3:1, under WCAG AA's 3:1 for large text.
      color: token.colorSuccessText,
    },
    {
      title: t('figures.unhandled'),
      value: v((d) => d.work.unhandledWarnings),
      testId: 'wel-fig-unhandled',
      color: data?.work.unhandledWarnings ? token.colorWarning : undefined,
    },
  ];
  // The clinic's own figures come after the equipment's (issue 30: the page leads with the MES).
  const clinicTiles: FigureProps[] = [
    { title: t('figures.chairs'), value: v((d) => d.chairs), testId: 'wel-fig-chairs' },
    { title: t('figures.personnel'), value: v((d) => d.personnel), testId: 'wel-fig-personnel' },
  ];
  // The wall lays the tiles in one row on a 1920 px screen; the page in a grid.
  const span = wall ? { flex: '1 0 180px' } : { xs: 12, sm: 8, xl: 6, xxl: 4 };
  const cells = (list: { key: string; node: ReactNode }[]) =>
    list.map((c) => (
      <Col key={c.key} {...span}>
        {c.node}
      </Col>
    ));
  return (
    <Row gutter={[12, 12]} className="mes-wel-figures" data-testid="wel-figures">
      {cells([
        ...tiles.map((tile) => ({ key: tile.testId, node: <Figure {...tile} /> })),
        ...(wall ? [] : [{ key: 'verification', node: <VerificationCard data={data} /> }]),
        ...clinicTiles.map((tile) => ({ key: tile.testId, node: <Figure {...tile} /> })),
        ...(wall ? [] : [{ key: 'assets', node: <AssetsCard data={data} /> }]),
      ])}
    </Row>
  );
}

/** Fixed assets: the devices by their product's category. */
function AssetsCard({ data }: { data: WelcomeOverview | undefined }) {
  const { t } = useTranslation('wel');
  return (
    <Card size="small" className="mes-wel-figure">
      <Statistic title={t('figures.assets')} value={data ? data.assets.total : '–'} data-testid="wel-fig-assets" />
      <ul className="mes-wel-assets" data-testid="wel-fig-assets-list">
        {data?.assets.byCategory.map((c) => (
          <li key={c.category} data-category={c.category}>
            <Typography.Text type="secondary" ellipsis>
              {t(`category.${c.category}`, { defaultValue: `#${c.category}` })}
            </Typography.Text>
            <span className="mes-wel-assets-n">{c.devices}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/**
 * Verification: the steam sterilisers released today (today's latest BD test passed, no open
 * requalification) of those that need one, the ones not released and why, the recalled loads
 * nobody handled, and the last 7 days' results.
 */
function VerificationCard({ data }: { data: WelcomeOverview | undefined }) {
  const { t } = useTranslation('wel');
  const { token } = theme.useToken();
  const v = data?.verification;
  return (
    <Card size="small" className="mes-wel-figure" data-testid="wel-fig-verification">
      <Statistic
        title={t('figures.released')}
        value={v ? v.released : '–'}
        suffix={v ? `/ ${v.bdDevices}` : undefined}
        valueStyle={v?.notReleased ? { color: token.colorError } : undefined}
        data-testid="wel-fig-released"
      />
      <ul className="mes-wel-assets" data-testid="wel-fig-verification-list">
        <li>
          <Typography.Text type="secondary">{t('figures.notReleased')}</Typography.Text>
          <span className="mes-wel-assets-n" data-testid="wel-fig-not-released">
            {v ? v.notReleased : '–'}
          </span>
        </li>
        {v?.notReleasedDevices.map((d) => (
          <li key={d.deviceId} data-testid="wel-fig-not-released-device" data-code={d.deviceCode}>
            <Typography.Text ellipsis className="mes-wel-data">
              {d.deviceName || d.deviceCode}
            </Typography.Text>
            <Typography.Text type="danger">{d.block ? t(`figures.${d.block}`) : ''}</Typography.Text>
          </li>
        ))}
        <li>
          <Typography.Text type="secondary">{t('figures.openRecalls')}</Typography.Text>
          <span
            className="mes-wel-assets-n"
            data-testid="wel-fig-open-recalls"
            style={v?.openRecalls ? { color: token.colorError } : undefined}
          >
            {v ? v.openRecalls : '–'}
          </span>
        </li>
        <li>
          <Typography.Text type="secondary">{t('figures.recent')}</Typography.Text>
          <span className="mes-wel-assets-n" data-testid="wel-fig-recent">
            {v ? `${v.recent.passes} / ${v.recent.fails}` : '–'}
          </span>
        </li>
      </ul>
    </Card>
  );
}
