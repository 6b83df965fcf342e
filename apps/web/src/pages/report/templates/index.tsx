import { Button, Spin } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, reportTemplateResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';

// pdfme's Designer (with its own antd 6) is megabytes: loaded only when a template is designed.
const TemplateDesigner = lazy(() => import('./designer'));

const DESIGN_CODE = buttonCodes.reportTemplate.design;

/** 报表模板: the generic screen, and 设计 opening pdfme's Designer on a template (docs/reports.md). */
export default function ReportTemplatesScreen() {
  const { i18n } = useTranslation();
  const [designing, setDesigning] = useState<{ row: Row; reload(): void } | null>(null);
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can(DESIGN_CODE) ? (
        <Button
          type="link"
          size="small"
          data-testid="report-template-design"
          onClick={() => setDesigning({ row, reload: () => ctx.reload() })}
        >
          {i18n.language.startsWith('en') ? 'Design' : '设计'}
        </Button>
      ) : null,
    [i18n.language],
  );
  return (
    <div data-testid="report-template-screen">
      <ResourcePage resource={reportTemplateResource} rowActions={rowActions} />
      {designing ? (
        <Suspense fallback={<Spin fullscreen />}>
          <TemplateDesigner
            row={designing.row}
            onClose={(saved) => {
              if (saved) designing.reload();
              setDesigning(null);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
