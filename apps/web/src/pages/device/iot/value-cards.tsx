import { ClockCircleOutlined } from '@ant-design/icons';
import { Empty, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ModelDataItem } from '@mes/contracts';
import { ageNow, ageText, formatValue, isChartable, isStale, valueName } from './format';
import { useNow } from './live-data';

export interface ValueCardsProps {
  items: readonly ModelDataItem[];
  /** When the items were read (epoch ms): their ages run on from there. */
  repliedAt: number;
  inactivitySeconds: number | undefined;
  /** The field the chart shows; its card is marked. */
  selected: string | undefined;
  onSelect(field: string): void;
}

/**
 * One card per model field with its newest value, unit and age; stale values are dimmed, fields
 * without a value say so. A numeric card picks the chart's field. The grid wraps to the width.
 */
export function ValueCards({ items, repliedAt, inactivitySeconds, selected, onSelect }: ValueCardsProps) {
  const { t, i18n } = useTranslation('iot');
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const now = useNow();
  if (!items.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('live.noModel')} data-testid="iot-no-model" />;
  return (
    <div className="mes-iot-cards" data-testid="iot-cards">
      {items.map((item) => {
        const shown = formatValue(item, t);
        const name = shown === null ? undefined : valueName(item, lang);
        const age = ageNow(item.ageSeconds, repliedAt, now);
        const stale = isStale(age, inactivitySeconds);
        const chartable = isChartable(item);
        const classes = [
          'mes-iot-card',
          stale ? 'is-stale' : '',
          shown === null ? 'is-empty' : '',
          chartable ? 'is-chartable' : '',
          item.field === selected ? 'is-selected' : '',
        ];
        const body = (
          <>
            <div className="mes-iot-card-name" title={`${item.name} (${item.field})`}>
              {item.name || item.field}
            </div>
            <div className="mes-iot-card-value">
              {shown === null ? (
                <Typography.Text type="secondary">{t('live.noValue')}</Typography.Text>
              ) : (
                <>
                  <span data-testid={`iot-value-${item.field}`}>{name ?? shown}</span>
                  {/* A named value keeps its number beside the name (the device sent the number). */}
                  {name !== undefined && (
                    <span className="mes-iot-card-raw" data-testid={`iot-raw-${item.field}`}>
                      {shown}
                    </span>
                  )}
                  {name === undefined && item.unit && item.dataType !== 'bool' ? (
                    <span className="mes-iot-card-unit">{item.unit}</span>
                  ) : null}
                </>
              )}
            </div>
            <div className="mes-iot-card-age">
              {shown !== null && item.quality !== 0 && (
                <Typography.Text type="danger" className="mes-iot-card-bad">
                  {t('live.bad')}
                </Typography.Text>
              )}
              {age !== null && (
                <Tooltip title={stale ? `${t('live.stale')} · ${item.time ?? ''}` : item.time}>
                  <span data-testid={`iot-age-${item.field}`}>
                    <ClockCircleOutlined /> {ageText(age, t)}
                  </span>
                </Tooltip>
              )}
            </div>
          </>
        );
        return chartable ? (
          <button
            type="button"
            key={item.field}
            className={classes.join(' ')}
            onClick={() => onSelect(item.field)}
            aria-pressed={item.field === selected}
            data-testid={`iot-card-${item.field}`}
            data-stale={stale}
          >
            {body}
          </button>
        ) : (
          <div key={item.field} className={classes.join(' ')} data-testid={`iot-card-${item.field}`} data-stale={stale}>
            {body}
          </div>
        );
      })}
    </div>
  );
}
