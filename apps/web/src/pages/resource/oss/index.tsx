import { InboxOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Modal, Tag, Tooltip, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EnableStatus, ossResource, type ApiResult } from '@mes/contracts';
import { request } from '../../../api/http';
import { ResourcePage } from '../../../crud/resource-page';
import type { ExtraColumn, ResourcePageContext, Row } from '../../../crud/resource-page-types';
import { MAX_FILE_BYTES, putFile, safeHref, type UploadedFile } from '../attach/storage-api';

const ENABLE_CODE = 'oss_enable';
const DEBUG_CODE = 'oss_debug';

const isEnabled = (row: Row) => Number(row.status) === EnableStatus.enabled;

/** 启用: makes this the tenant's storage for new uploads (the server disables the others). */
function EnableButton({ row, ctx }: { row: Row; ctx: ResourcePageContext }) {
  const { t } = useTranslation('storage');
  const { message, modal } = App.useApp();
  if (!ctx.can(ENABLE_CODE) || isEnabled(row)) return null;
  const confirm = () =>
    modal.confirm({
      title: t('tip', { ns: 'crud' }),
      content: t('enableConfirm', { code: row.ossCode }),
      okText: t('ok', { ns: 'crud' }),
      cancelText: t('cancel', { ns: 'crud' }),
      onOk: async () => {
        try {
          const answer = await request<ApiResult<boolean>>(`${ossResource.api}/enable`, {
            method: 'POST',
            params: { id: row.id },
          });
          void message.success(answer.msg);
          ctx.reload();
        } catch {
          // toasted by the client
        }
      },
    });
  return (
    <Button type="link" size="small" onClick={confirm} data-testid="oss-enable">
      {t('enable')}
    </Button>
  );
}

/** 上传调试: uploads a file with one configuration and shows where it went. */
function DebugDialog({ row, onClose }: { row: Row | null; onClose(): void }) {
  const { t } = useTranslation('storage');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ of: Row; file: UploadedFile } | null>(null);
  const shown = result && result.of === row ? result.file : null;
  const href = safeHref(shown?.link);
  return (
    <Modal
      open={!!row}
      title={t('debugTitle', { code: row?.ossCode ?? '' })}
      width={560}
      destroyOnHidden
      onCancel={onClose}
      footer={
        <Button onClick={onClose} data-testid="oss-debug-close">
          {t('close', { ns: 'crud' })}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('debugHint')}</Typography.Paragraph>
      <Upload.Dragger
        name="file"
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          if (file.size > MAX_FILE_BYTES) {
            void message.error(t('tooLarge'));
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          if (!row) return;
          setBusy(true);
          putFile(file as File, { code: String(row.ossCode) })
            .then((uploaded) => {
              setResult({ of: row, file: uploaded });
              void message.success(t('uploaded'));
              onSuccess?.(uploaded);
            })
            // The HTTP client has shown the server's reason (credentials, bucket, endpoint).
            .catch((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))))
            .finally(() => setBusy(false));
        }}
        data-testid="oss-debug-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{busy ? t('uploading') : t('dropHint')}</p>
        <p className="ant-upload-hint">{t('sizeHint')}</p>
      </Upload.Dragger>
      {shown && (
        <Descriptions
          column={1}
          size="small"
          bordered
          style={{ marginTop: 16 }}
          styles={{ label: { whiteSpace: 'nowrap' } }}
          data-testid="oss-debug-result"
        >
          <Descriptions.Item label={t('link')}>
            {href ? (
              <Typography.Link href={href} target="_blank" rel="noopener noreferrer" data-testid="oss-debug-link">
                {shown.link}
              </Typography.Link>
            ) : (
              shown.link
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('objectKey')}>{shown.name}</Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}

/** 对象存储: configurations, one enabled per tenant (none: files stay on the server's disk). */
export default function OssScreen() {
  const { t } = useTranslation('storage');
  const [debugging, setDebugging] = useState<Row | null>(null);

  const rowActions = useMemo(
    () => (row: Row, ctx: ResourcePageContext) => (
      <>
        <EnableButton row={row} ctx={ctx} />
        {ctx.can(DEBUG_CODE) && (
          <Tooltip title={isEnabled(row) ? undefined : t('enableFirst')}>
            <Button
              type="link"
              size="small"
              disabled={!isEnabled(row)}
              onClick={() => setDebugging(row)}
              data-testid="oss-debug"
            >
              {t('debug')}
            </Button>
          </Tooltip>
        )}
      </>
    ),
    [t],
  );

  const extraColumns = useMemo<ExtraColumn[]>(
    () => [
      {
        key: 'status',
        title: t('status'),
        width: 90,
        render: (row) =>
          isEnabled(row) ? (
            <Tag color="success" data-testid="oss-status">
              {t('statusEnabled')}
            </Tag>
          ) : (
            <Tag data-testid="oss-status">{t('statusDisabled')}</Tag>
          ),
      },
    ],
    [t],
  );

  return (
    <div data-testid="oss-screen">
      <ResourcePage resource={ossResource} rowActions={rowActions} extraColumns={extraColumns} />
      <DebugDialog row={debugging} onClose={() => setDebugging(null)} />
    </div>
  );
}
