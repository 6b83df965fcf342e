import { PrinterOutlined } from '@ant-design/icons';
import { Button, DatePicker, Segmented, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  buttonCodes,
  disinfectionLedgerResource,
  DISINFECTION_LEDGER_ROUTE,
  isLedgerRangeError,
  ledgerRange,
  LedgerPeriod,
} from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { LedgerRegister } from './register';
import { ledgerToday, periodText } from './ledger-figures';

const PRINT = buttonCodes.ledger.print;
type Range = [Dayjs, Dayjs];

const thisMonth = (): Range => {
  const today = dayjs(ledgerToday());
  return [today.startOf('month'), today.endOf('month')];
};

/**
 * 消毒台账: the ledger aggregate's generic screen (search by department, device, device code and
 * record type, sort, export) under a period switch and a date range, and a print button that
 * opens the A4 register of the rows the screen lists.
 */
export default function LedgerScreen() {
  const { t, i18n } = useTranslation('ledger');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [period, setPeriod] = useState<LedgerPeriod>(LedgerPeriod.day);
  const [range, setRange] = useState<Range>(thisMonth);
  const [printing, setPrinting] = useState<Record<string, string | number | undefined> | null>(null);

  const asked = useMemo(() => {
    const format = period === LedgerPeriod.month ? 'YYYY-MM' : 'YYYY-MM-DD';
    return { period, startDate: range[0].format(format), endDate: range[1].format(format) };
  }, [period, range]);
  // The same check as the server's: a range it would refuse is named here and never sent.
  const checked = useMemo(() => ledgerRange(asked, ledgerToday()), [asked]);
  const [params, setParams] = useState(asked);
  const error = isLedgerRangeError(checked) ? checked.why[lang] : undefined;
  if (!error && params !== asked) setParams(asked);

  const toolbar = useCallback(
    (ctx: ResourcePageContext) =>
      ctx.can(PRINT) ? (
        <Button icon={<PrinterOutlined />} onClick={() => setPrinting(ctx.listQuery)} data-testid="ledger-print">
          {t('print')}
        </Button>
      ) : null,
    [t],
  );
  const render = useMemo(
    () => ({ periodStart: (value: unknown, row: Row) => periodText(String(value ?? ''), String(row.period)) }),
    [],
  );

  return (
    <>
      <Space wrap style={{ paddingBottom: 8 }} data-testid="ledger-range">
        <Typography.Text>{t('period')}:</Typography.Text>
        <Segmented
          value={period}
          onChange={(value) => setPeriod(value as LedgerPeriod)}
          options={[
            { label: t('byDay'), value: LedgerPeriod.day },
            { label: t('byMonth'), value: LedgerPeriod.month },
          ]}
          data-testid="ledger-period"
        />
        <Typography.Text>{t('range')}:</Typography.Text>
        <DatePicker.RangePicker
          picker={period === LedgerPeriod.month ? 'month' : 'date'}
          value={range}
          allowClear={false}
          onChange={(value) => {
            if (value?.[0] && value[1]) setRange([value[0], value[1]]);
          }}
          data-testid="ledger-dates"
        />
        {error && (
          <Typography.Text type="danger" data-testid="ledger-range-error">
            {error}
          </Typography.Text>
        )}
      </Space>
      <ResourcePage
        resource={disinfectionLedgerResource}
        listUrl={DISINFECTION_LEDGER_ROUTE}
        params={params}
        toolbar={toolbar}
        render={render}
      />
      {printing && <LedgerRegister query={printing} onClose={() => setPrinting(null)} />}
    </>
  );
}
