import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attachResource, buttonCodes } from '@mes/contracts';
import { download } from '../../../engine/download';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { formatSize, MAX_FILE_BYTES, putFile, safeHref } from './storage-api';

const UPLOAD_CODE = buttonCodes.attach.upload;
const DOWNLOAD_CODE = buttonCodes.attach.download;

/** 上传: one file to the tenant's storage; the new attachment shows up in the list. */
function UploadButton({ ctx }: { ctx: ResourcePageContext }) {
  const { t } = useTranslation('storage');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  if (!ctx.can(UPLOAD_CODE)) return null;
  return (
    <Upload
      name="file"
      showUploadList={false}
      beforeUpload={(file) => {
        if (file.size > MAX_FILE_BYTES) {
          void message.error(t('tooLarge'));
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={({ file, onSuccess, onError }) => {
        setBusy(true);
        putFile(file as File)
          .then((uploaded) => {
            void message.success(t('uploaded'));
            onSuccess?.(uploaded);
            ctx.reload();
          })
          // The HTTP client has shown the server's reason.
          .catch((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))))
          .finally(() => setBusy(false));
      }}
    >
      <Button type="primary" icon={<UploadOutlined />} loading={busy} data-testid="attach-upload">
        {busy ? t('uploading') : t('upload')}
      </Button>
    </Upload>
  );
}

/** 下载: the stored file under its original name, through the server (tenant-checked). */
function DownloadButton({ row, ctx }: { row: Row; ctx: ResourcePageContext }) {
  const { t } = useTranslation('storage');
  const [busy, setBusy] = useState(false);
  if (!ctx.can(DOWNLOAD_CODE)) return null;
  const run = async () => {
    setBusy(true);
    try {
      await download(`${attachResource.api}/download`, { id: row.id }, String(row.originalName ?? 'download'));
    } catch {
      // toasted by download
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      type="link"
      size="small"
      icon={<DownloadOutlined />}
      loading={busy}
      onClick={() => void run()}
      data-testid="attach-download"
    >
      {t('download')}
    </Button>
  );
}

const toolbar = (ctx: ResourcePageContext) => <UploadButton ctx={ctx} />;
const rowActions = (row: Row, ctx: ResourcePageContext) => <DownloadButton row={row} ctx={ctx} />;

const render = {
  attachSize: (value: unknown) => formatSize(value),
  link: (value: unknown) => {
    const href = safeHref(value);
    return href ? (
      <Typography.Link href={href} target="_blank" rel="noopener noreferrer" data-testid="attach-link">
        {String(value)}
      </Typography.Link>
    ) : (
      String(value ?? '')
    );
  },
};

/** 附件管理: every stored file, uploaded here or anywhere else in the console; rows come only from uploads. */
export default function AttachScreen() {
  const renderers = useMemo(() => render, []);
  return (
    <div data-testid="attach-screen">
      <ResourcePage resource={attachResource} toolbar={toolbar} rowActions={rowActions} render={renderers} noAdd />
    </div>
  );
}
