import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Statistic, theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, LOGIN_LOG_COUNT_PATH, type LoginLogCount } from '@mes/contracts';
import { apiQuery } from '../../api/server-state';
import './wel.css';

/**
 * The server writes sign-in log rows in batches about once a second, so figures read right after
 * signing in can miss the sign-in itself: they are read again once that batch has landed.
 */
const SETTLE_MS = 2500;

/**
 * Today's sign-ins and a bar per day of the last 7 (`LOGIN_LOG_COUNT_PATH`); no chart library.
 * The card says when the figures were taken, and reads them again shortly after the first load,
 * whenever the window regains focus or the tab is shown again, and on the refresh button.
 */
export function LoginCounts() {
  const { t } = useTranslation('log');
  // Figures this user may not read (or a failed first load) leave no card behind: no toast.
  const query = useQuery({
    ...apiQuery<LoginLogCount>(LOGIN_LOG_COUNT_PATH, undefined, { silent: true }),
    // Live figures: always stale, and unlike the lists they follow the window's focus.
    staleTime: 0,
    refetchOnWindowFocus: true,
    // Once more after the first answer of this session's cache, when the sign-in has landed.
    refetchInterval: (read) => (read.state.dataUpdateCount === 1 ? SETTLE_MS : false),
  });
  const { refetch } = query;
  const counts = query.data;
  const takenAt = query.dataUpdatedAt ? new Date(query.dataUpdatedAt) : undefined;
  // Theme tokens, so the figures stay readable on the dark theme too.
  const { token } = theme.useToken();

  if (!counts) {
    // Holds the card's place while the first figures load, so the page does not jump.
    return query.isError ? null : <Card title={t('signIns')} className="mes-wel-signins" loading />;
  }
  const most = Math.max(1, ...counts.days.map((d) => d.total));
  return (
    <Card
      title={t('signIns')}
      className="mes-wel-signins"
      data-testid="wel-login-counts"
      extra={
        <span className="mes-wel-taken">
          <Typography.Text type="secondary" data-testid="wel-login-taken">
            {takenAt ? t('takenAt', { time: formatDateTime(takenAt).slice(11) }) : null}
          </Typography.Text>
          <Tooltip title={t('refresh')}>
            <Button
              type="text"
              size="small"
              icon={<ReloadOutlined />}
              loading={query.isFetching}
              aria-label={t('refresh')}
              onClick={() => void refetch()}
              data-testid="wel-login-refresh"
            />
          </Tooltip>
        </span>
      }
    >
      <Row gutter={16}>
        <Col span={8}>
          <Statistic title={t('today')} value={counts.today.total} data-testid="wel-login-today" />
        </Col>
        <Col span={8}>
          <Statistic
            title={t('todaySuccess')}
            value={counts.today.success}
            valueStyle={{ color: token.colorSuccessText }}
          />
        </Col>
        <Col span={8}>
          <Statistic title={t('todayFail')} value={counts.today.fail} valueStyle={{ color: token.colorErrorText }} />
        </Col>
      </Row>
      <Typography.Text type="secondary" className="mes-wel-days-title">
        {t('last7Days')}
      </Typography.Text>
      <ul className="mes-wel-days" data-testid="wel-login-days">
        {counts.days.map((day) => (
          <li key={day.date}>
            <span className="mes-wel-day">{day.date.slice(5)}</span>
            <span className="mes-wel-bar">
              <span style={{ width: `${(day.total / most) * 100}%` }} />
            </span>
            <span className="mes-wel-count">{t('times', { count: day.total })}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
