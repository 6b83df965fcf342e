import { SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Modal, Table, Tag } from 'antd';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  permissionCodes,
  recordButtonCodes,
  ReviewStatus,
  type ApiResult,
  type ChainReport,
  type ResourceDef,
} from '@mes/contracts';
import { request } from '../api/http';
import type { ResourcePageContext, ResourcePageProps, Row } from './resource-page-types';
import { useConfirmedRowAction } from './confirmed-row-action';

const isPending = (row: Row) => Number(row.reviewStatus) === ReviewStatus.pending && row.superseded !== true;

/**
 * What a record definition (`defineRecordResource`) adds to the generic page: per row 审核
 * (`<code>_review`, pending latest versions), 更正 (`<code>_correct`: the edit dialog, saved as a
 * new version) and 版本 (the versions of the record), and in the toolbar 校验记录链
 * (`<code>_verify`), which names the first broken row. Other resources get their props back.
 */
export function useRecordOperation(
  def: ResourceDef,
  rowActions: ResourcePageProps['rowActions'],
  toolbar: ResourcePageProps['toolbar'],
) {
  const { t } = useTranslation('crud');
  const { modal } = App.useApp();
  const [versionsOf, setVersionsOf] = useState<string | undefined>();
  const records = def.records !== undefined;

  const review = useConfirmedRowAction(`${def.api}/review`, 'ids', t('reviewConfirm'));

  const verify = useCallback(async () => {
    try {
      const answer = await request<ApiResult<ChainReport>>(`${def.api}/verify`);
      const fine = answer.data.broken === null;
      (fine ? modal.success : modal.error)({
        title: t(fine ? 'verifyOk' : 'verifyBroken'),
        content: <span data-testid={`${def.code}-verify-result`}>{answer.msg}</span>,
        okText: t('ok'),
      });
    } catch {
      // toasted by the client
    }
  }, [def.api, def.code, modal, t]);

  const withRecordRows = useMemo(() => {
    if (!records) return rowActions;
    return (row: Row, ctx: ResourcePageContext): ReactNode => (
      <>
        {ctx.can(recordButtonCodes(def.code).review) && isPending(row) && (
          <Button type="link" size="small" onClick={() => review(row, ctx)} data-testid={`${def.code}-review`}>
            {t('review')}
          </Button>
        )}
        {ctx.can(recordButtonCodes(def.code).correct) && row.superseded !== true && (
          <Button
            type="link"
            size="small"
            onClick={() => ctx.openForm('edit', row, undefined, { submitPath: 'correct' })}
            data-testid={`${def.code}-correct`}
          >
            {t('correct')}
          </Button>
        )}
        {ctx.can(permissionCodes(def.code).view) && (
          <Button type="link" size="small" onClick={() => setVersionsOf(row.id)} data-testid={`${def.code}-versions`}>
            {t('versions')}
          </Button>
        )}
        {rowActions?.(row, ctx)}
      </>
    );
  }, [records, rowActions, def.code, review, t]);

  const withVerify = useMemo(() => {
    if (!records) return toolbar;
    return (ctx: ResourcePageContext): ReactNode => (
      <>
        {ctx.can(recordButtonCodes(def.code).verify) && (
          <Button icon={<SafetyCertificateOutlined />} onClick={() => void verify()} data-testid={`${def.code}-verify`}>
            {t('verify')}
          </Button>
        )}
        {toolbar?.(ctx)}
      </>
    );
  }, [records, toolbar, def.code, verify, t]);

  const dialog = records ? <RecordVersions def={def} id={versionsOf} onClose={() => setVersionsOf(undefined)} /> : null;

  return { records, rowActions: withRecordRows, toolbar: withVerify, dialog };
}

/** The versions of one record, oldest first, the current one marked. */
function RecordVersions({ def, id, onClose }: { def: ResourceDef; id: string | undefined; onClose(): void }) {
  const { t } = useTranslation('crud');
  const [rows, setRows] = useState<Row[]>([]);
  const [shownFor, setShownFor] = useState<string | undefined>();
  if (id && shownFor !== id) {
    setShownFor(id);
    setRows([]);
    void request<ApiResult<Row[]>>(`${def.api}/versions`, { params: { id } })
      .then((answer) => setRows(answer.data))
      .catch(() => undefined);
  }
  const columns = [
    { key: 'recordVersion', dataIndex: 'recordVersion', title: t('version'), width: 70 },
    {
      key: 'superseded',
      title: t('superseded'),
      width: 90,
      render: (_: unknown, row: Row) =>
        row.superseded === true ? <Tag>{t('superseded')}</Tag> : <Tag color="success">{t('current')}</Tag>,
    },
    {
      key: 'reviewStatus',
      title: t('reviewStatus'),
      width: 90,
      render: (_: unknown, row: Row) => (Number(row.reviewStatus) === ReviewStatus.reviewed ? t('review') : '—'),
    },
    { key: 'operatorName', dataIndex: 'operatorName', title: t('operator') },
    { key: 'reviewerName', dataIndex: 'reviewerName', title: t('reviewer') },
    { key: 'createTime', dataIndex: 'createTime', title: t('createdAt'), width: 170 },
  ];
  return (
    <Modal open={id !== undefined} title={t('versionsTitle')} onCancel={onClose} footer={null} width={760}>
      <Table<Row>
        rowKey="id"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={rows}
        data-testid={`${def.code}-versions-table`}
      />
    </Modal>
  );
}
