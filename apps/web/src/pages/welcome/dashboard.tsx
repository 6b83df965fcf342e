import { ConfigProvider, Tag, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@mes/contracts';
import '../../i18n/shell-resources';
import { ServerStateProvider } from '../../api/server-state-provider';
import { DeviceMap } from './device-map';
import { WARNING_LEVEL_TAG } from '../../shell/warning-level';
import { OverviewCharts } from './overview-charts';
import { OverviewFigures } from './overview-figures';
import { useWallData } from './use-overview';
import './wall.css';

/** A wall has nobody to press refresh; live events come sooner when the stream is up. */
const WALL_REFRESH_MS = 30_000;

function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time className="mes-wall-clock" data-testid="wall-clock">
      {formatDateTime(now)}
    </time>
  );
}

/**
 * `/wel/dashboard`: the wall-screen variant of the welcome page, outside the shell — dark, large
 * type, refreshing itself: the same figures, the device map by department, the charts and the
 * newest unhandled warnings, laid out for a 1920×1080 screen (it stacks on narrow ones). Outside
 * the shell's layout, it brings the server-state provider itself.
 */
export default function Dashboard() {
  return (
    <ServerStateProvider>
      <Wall />
    </ServerStateProvider>
  );
}

function Wall() {
  const { t } = useTranslation('wel');
  const { overview, map } = useWallData(WALL_REFRESH_MS);
  const data = overview.data;
  useEffect(() => {
    const title = document.title;
    document.title = t('wall.title');
    return () => {
      document.title = title;
    };
  }, [t]);
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm, token: { fontSize: 16 } }}>
      <div className="mes-wall" data-testid="wall">
        <header className="mes-wall-head">
          <h1>{t('wall.title')}</h1>
          <span className="mes-wall-taken">{data ? t('takenAt', { time: data.takenAt.slice(11) }) : null}</span>
          <Clock />
        </header>
        <OverviewFigures data={data} wall />
        <main className="mes-wall-main">
          <DeviceMap map={map.data} />
          <div className="mes-wall-side">
            <OverviewCharts data={data} wall height={210} />
            <section className="mes-wall-panel" data-testid="wall-warnings">
              <header className="mes-wall-panel-title">
                {t('work.warnings')} ({data?.work.unhandledWarnings ?? 0})
              </header>
              <ul className="mes-wall-warnings">
                {data?.work.warnings.slice(0, 6).map((w) => (
                  <li key={w.id}>
                    <Tag color={WARNING_LEVEL_TAG[w.level]}>{t(`level.${w.level}`, { defaultValue: w.level })}</Tag>
                    <span className="mes-wall-warning-device">{w.deviceName ?? w.deviceCode}</span>
                    <span className="mes-wall-warning-msg">{w.message}</span>
                    <span className="mes-wall-warning-time">{w.startTime?.slice(5, 16)}</span>
                  </li>
                ))}
                {data && data.work.warnings.length === 0 ? <li>{t('work.noWarnings')}</li> : null}
              </ul>
            </section>
          </div>
        </main>
      </div>
    </ConfigProvider>
  );
}
