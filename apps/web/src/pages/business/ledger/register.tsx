import { CloseOutlined, PrinterOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import {
  disinfectionLedgerResource,
  DISINFECTION_LEDGER_ROUTE,
  formatDateTime,
  LedgerPeriod,
  MAX_PAGE_SIZE,
  type LedgerRow,
  type PageResult,
} from '@mes/contracts';
import { apiGet } from '../../../api/server-state';
import { lastVerificationText, ledgerTotals, periodText } from './ledger-figures';
import './register.css';

type Query = Record<string, string | number | undefined>;
type Figure = keyof LedgerRow;

/** The register's figure columns, in the paper ledger's order, labelled as the definition labels them. */
const FIGURES: readonly Figure[] = [
  'chairs',
  'cycles',
  'passes',
  'fails',
  'aborts',
  'totalMinutes',
  'avgConcentration',
  'minConcentration',
  'waterVolume',
  'disinfectantMg',
  'warnings',
];

/**
 * While the register is open, and only then: A4 landscape, page numbers in the bottom margin (in
 * the interface's language), and nothing of the console on paper.
 */
const printRules = (pageOf: string) => `
@page { size: A4 landscape; margin: 12mm 12mm 14mm; @bottom-center { content: "${pageOf}"; font-size: 9pt; } }
@media print { body > :not(.ledger-print) { display: none !important; } }`;

/** Every row the screen lists (all its pages), in its order. */
async function allRows(query: Query): Promise<LedgerRow[]> {
  const rows: LedgerRow[] = [];
  for (let current = 1; ; current++) {
    const page = await apiGet<PageResult<LedgerRow>>(DISINFECTION_LEDGER_ROUTE, {
      ...query,
      current,
      size: MAX_PAGE_SIZE,
    });
    rows.push(...page.records);
    if (current >= page.pages || !page.records.length) return rows;
  }
}

/**
 * The printable register (消毒登记台账): the rows the screen lists, as a paper ledger has them —
 * title, period and department, a bordered table with a totals row, lines for the operator's and
 * the reviewer's signatures, page numbers — on A4 landscape. Shown over the console; printing
 * prints it alone (register.css).
 */
export function LedgerRegister({ query, onClose }: { query: Query; onClose: () => void }) {
  const { t, i18n } = useTranslation('ledger');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const rows = useQuery({ queryKey: ['ledger-register', query], queryFn: () => allRows(query), gcTime: 0 });
  const fields = disinfectionLedgerResource.fields;
  const label = (name: keyof typeof fields) => fields[name].label[lang];
  const records = rows.data ?? [];
  const totals = ledgerTotals(records);
  const period = String(query.period ?? LedgerPeriod.day);
  const depts = [...new Set(records.map((r) => r.deptIdName).filter(Boolean))];
  const deptText = query.deptId && depts.length === 1 ? depts[0] : t('allDepts');
  const range = t('rangeText', {
    start: periodText(String(query.startDate ?? ''), period),
    end: periodText(String(query.endDate ?? ''), period),
  });

  return createPortal(
    <div className="ledger-print" data-testid="ledger-register">
      <style>{printRules(t('pageOf'))}</style>
      <div className="ledger-print-actions">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="ledger-print-now">
          {t('printNow')}
        </Button>
        <Button icon={<CloseOutlined />} onClick={onClose} data-testid="ledger-print-close">
          {t('close')}
        </Button>
      </div>
      <div className="ledger-sheet">
        <h1 className={`ledger-title ledger-title-${lang}`}>{t('title')}</h1>
        <div className="ledger-meta">
          <span>
            {t('period')}: {period === LedgerPeriod.month ? t('byMonth') : t('byDay')}
          </span>
          <span data-testid="ledger-register-range">{range}</span>
          <span>
            {t('dept')}: {deptText}
          </span>
          <span>
            {t('printedAt')}: {formatDateTime(new Date())}
          </span>
        </div>
        {rows.isLoading ? (
          <Spin tip={t('loading')}>
            <div style={{ height: 120 }} />
          </Spin>
        ) : (
          <table className="ledger-table" data-testid="ledger-register-table">
            <thead>
              <tr>
                <th>{t('index')}</th>
                <th>{label('periodStart')}</th>
                <th>{label('deptId')}</th>
                <th>{label('deviceCode')}</th>
                <th>{t('deviceName')}</th>
                {FIGURES.map((name) => (
                  <th key={name}>{label(name as keyof typeof fields)}</th>
                ))}
                <th>{label('lastVerificationType')}</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r, i) => (
                <tr key={r.id}>
                  <td className="num">{i + 1}</td>
                  <td>{periodText(r.periodStart, r.period)}</td>
                  <td>{r.deptIdName}</td>
                  <td>{r.deviceCode}</td>
                  <td>{r.deviceIdName}</td>
                  {FIGURES.map((name) => (
                    <td key={name} className="num">
                      {String(r[name] ?? '')}
                    </td>
                  ))}
                  <td data-field="lastVerification">{lastVerificationText(r, lang)}</td>
                </tr>
              ))}
              {!records.length && (
                <tr>
                  <td colSpan={6 + FIGURES.length} className="ledger-empty">
                    {t('empty')}
                  </td>
                </tr>
              )}
            </tbody>
            <tfoot>
              <tr data-testid="ledger-register-totals">
                <td colSpan={5}>
                  {t('total')} ({t('rows', { count: records.length })})
                </td>
                {FIGURES.map((name) => (
                  <Fragment key={name}>
                    <td className="num" data-field={name}>
                      {name === 'chairs' ? '' : String(totals[name as keyof typeof totals])}
                    </td>
                  </Fragment>
                ))}
                <td />
              </tr>
            </tfoot>
          </table>
        )}
        <div className="ledger-signatures">
          <span>{t('operator')}:</span>
          <span className="ledger-line" />
          <span>{t('reviewer')}:</span>
          <span className="ledger-line" />
          <span>{t('signDate')}:</span>
          <span className="ledger-line" />
        </div>
      </div>
    </div>,
    document.body,
  );
}
