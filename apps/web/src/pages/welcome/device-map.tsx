import { Empty, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CycleNow } from '../device/iot/device-state';
import { DeviceRunState, WELCOME_MAP_LIMIT, type WelcomeDeviceMap, type WelcomeMapDevice } from '@mes/contracts';

/** What a tile's colour says, most urgent first: a fault shows even when the device is offline. */
export type TileState = 'fault' | 'disinfecting' | 'online' | 'offline';

export function tileState(d: WelcomeMapDevice): TileState {
  if (d.runState === DeviceRunState.fault) return 'fault';
  if (!d.online) return 'offline';
  return d.runState === DeviceRunState.disinfecting ? 'disinfecting' : 'online';
}

const LEGEND: { state: TileState; key: string }[] = [
  { state: 'online', key: 'wall.legendOnline' },
  { state: 'disinfecting', key: 'wall.legendDisinfecting' },
  { state: 'fault', key: 'wall.legendFault' },
  { state: 'offline', key: 'wall.legendOffline' },
];

/** The wall's device map: a block per department, a tile per device coloured by its state. */
export function DeviceMap({ map }: { map: WelcomeDeviceMap | undefined }) {
  const { t } = useTranslation('wel');
  return (
    <section className="mes-wall-panel mes-wall-map" data-testid="wall-map">
      <header className="mes-wall-panel-title">
        <span>{t('wall.map')}</span>
        <span className="mes-wall-legend">
          {LEGEND.map((l) => (
            <span key={l.state} className="mes-wall-legend-item">
              <i className={`mes-wall-tile-dot is-${l.state}`} />
              {t(l.key)}
            </span>
          ))}
        </span>
      </header>
      {map && map.depts.length === 0 ? <Empty description={t('wall.noDevices')} /> : null}
      <div className="mes-wall-depts">
        {map?.depts.map((g) => (
          <div key={g.deptId ?? 'none'} className="mes-wall-dept" data-testid="wall-dept">
            <div className="mes-wall-dept-name">
              {g.deptName ?? t('wall.noDept')}
              <span className="mes-wall-dept-n">{g.devices.length}</span>
            </div>
            <div className="mes-wall-tiles">
              {g.devices.map((d) => {
                const state = tileState(d);
                return (
                  <Tooltip
                    key={d.id}
                    title={`${d.deviceCode} · ${t(LEGEND.find((l) => l.state === state)?.key ?? '')}`}
                  >
                    <div className={`mes-wall-tile is-${state}`} data-testid="wall-tile" data-state={state}>
                      {d.deviceName || d.deviceCode}
                      <CycleNow state={d.runState} cycle={d.cycle} />
                    </div>
                  </Tooltip>
                );
              })}
            </div>
          </div>
        ))}
      </div>
      {map?.truncated ? (
        <Typography.Text type="warning">{t('wall.truncated', { count: WELCOME_MAP_LIMIT })}</Typography.Text>
      ) : null}
    </section>
  );
}
