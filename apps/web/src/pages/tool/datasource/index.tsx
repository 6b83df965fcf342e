import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, datasourceResource } from '@mes/contracts';
import { apiPostReply } from '../../../api/server-state';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';

const TEST_CODE = buttonCodes.datasource.test;

/** Tries to connect with the stored settings and shows the server's answer. */
function ConnectionTest({ row, ctx }: { row: Row; ctx: ResourcePageContext }) {
  const { t } = useTranslation('crud');
  const { message } = App.useApp();
  const [testing, setTesting] = useState(false);
  if (!ctx.can(TEST_CODE)) return null;
  const test = async () => {
    setTesting(true);
    try {
      const answer = await apiPostReply(`${datasourceResource.api}/test`, undefined, { params: { id: row.id } });
      void message.success(answer.msg);
    } catch {
      // A failed connection comes back as a 400 with the reason; the client toasted it.
    } finally {
      setTesting(false);
    }
  };
  return (
    <Button type="link" size="small" loading={testing} onClick={test} data-testid="datasource-test">
      {t('connectionTest')}
    </Button>
  );
}

const rowActions = (row: Row, ctx: ResourcePageContext) => <ConnectionTest row={row} ctx={ctx} />;

export default function DatasourcePage() {
  return <ResourcePage resource={datasourceResource} rowActions={rowActions} />;
}
