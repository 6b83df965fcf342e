import { Card, Col, Row, Statistic } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginLogCount } from '@mes/contracts';
import { requestData } from '../../api/http';
import './wel.css';

/** Today's sign-ins and a bar per day of the last 7 (`/blade-desk/loginLog/count`); no chart library. */
export function LoginCounts() {
  const { t } = useTranslation('log');
  const [counts, setCounts] = useState<LoginLogCount | undefined>();

  useEffect(() => {
    let live = true;
    requestData<LoginLogCount>('/blade-desk/loginLog/count', { silent: true }).then(
      (c) => live && setCounts(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  if (!counts) return null;
  const most = Math.max(1, ...counts.days.map((d) => d.total));
  return (
    <Card title={t('signIns')} className="mes-wel-signins" data-testid="wel-login-counts">
      <Row gutter={16}>
        <Col span={8}>
          <Statistic title={t('today')} value={counts.today.total} />
        </Col>
        <Col span={8}>
          <Statistic title={t('todaySuccess')} value={counts.today.success} valueStyle={{ color: '#3f8600' }} />
        </Col>
        <Col span={8}>
          <Statistic title={t('todayFail')} value={counts.today.fail} valueStyle={{ color: '#cf1322' }} />
        </Col>
      </Row>
      <div className="mes-wel-days-title">{t('last7Days')}</div>
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
