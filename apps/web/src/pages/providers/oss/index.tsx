import { InboxOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Modal, Tooltip, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, ossResource } from '@mes/contracts';
import { isEnabledRow } from '../../../engine/enable-operation';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import type { UploadedFile } from '@mes/contracts';
import { MAX_FILE_BYTES, putFile, safeHref } from '../attachments/storage-api';

const DEBUG_CODE = buttonCodes.oss.debug;

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
        {ctx.can(DEBUG_CODE) && (
          <Tooltip title={isEnabledRow(row) ? undefined : t('enableFirst')}>
            <Button
              type="link"
              size="small"
              disabled={!isEnabledRow(row)}
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

  return (
    <div data-testid="oss-screen">
      <ResourcePage resource={ossResource} rowActions={rowActions} />
      <DebugDialog row={debugging} onClose={() => setDebugging(null)} />
    </div>
  );
}
