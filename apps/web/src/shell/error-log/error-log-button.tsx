import { BugOutlined, CloudUploadOutlined, DeleteOutlined } from '@ant-design/icons';
import { App, Badge, Button, Modal, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@mes/contracts';
import { website } from '../../config/website';
import type { ErrorLogEntry } from './error-entry';
import { uploadLocalLogs } from './error-log-api';
import { useErrorLog } from './error-log-store';
import './error-log.css';
import { HeaderToolButton } from '../header/header-tool-button';

function ErrorLogDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const logs = useErrorLog((s) => s.logs);
  const [busy, setBusy] = useState(false);
  // Newest first; the key is the entry's place in the stored (oldest-first) list.
  const rows = useMemo(() => logs.map((entry, index) => ({ ...entry, key: index })).reverse(), [logs]);

  const columns: TableColumnsType<ErrorLogEntry> = [
    {
      title: t('errorLog:type'),
      dataIndex: 'type',
      width: 80,
      render: (type: string) => <Tag color="error">{type}</Tag>,
    },
    {
      title: t('errorLog:url'),
      dataIndex: 'url',
      width: 260,
      render: (url: string) => <span className="mes-error-log-url">{url}</span>,
    },
    { title: t('errorLog:message'), dataIndex: 'message', width: 280 },
    {
      title: t('errorLog:stack'),
      dataIndex: 'stack',
      render: (stack: string, entry) => <pre className="mes-error-log-stack">{stack || entry.info}</pre>,
    },
    {
      title: t('errorLog:time'),
      dataIndex: 'time',
      width: 170,
      render: (time: number) => formatDateTime(new Date(time)),
    },
  ];

  const upload = () =>
    modal.confirm({
      title: t('tip'),
      content: t('errorLog:uploadConfirm'),
      onOk: async () => {
        setBusy(true);
        try {
          await uploadLocalLogs();
          void message.success(t('errorLog:uploadSuccess'));
        } catch {
          // The API client has shown the server's message; what was not sent stays listed.
        } finally {
          setBusy(false);
        }
      },
    });

  const clear = () =>
    modal.confirm({
      title: t('tip'),
      content: t('errorLog:clearConfirm'),
      onOk: () => {
        useErrorLog.getState().clear();
        void message.success(t('errorLog:clearSuccess'));
      },
    });

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width="100%"
      className="mes-error-log-modal"
      wrapClassName="mes-error-log-wrap"
      destroyOnHidden
      title={
        <Space wrap>
          <span>{t('errorLog:title')}</span>
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            onClick={upload}
            loading={busy}
            disabled={logs.length === 0}
            data-testid="error-log-upload"
          >
            {t('errorLog:upload')}
          </Button>
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={clear}
            disabled={logs.length === 0 || busy}
            data-testid="error-log-clear"
          >
            {t('errorLog:clear')}
          </Button>
        </Space>
      }
    >
      <Table<ErrorLogEntry>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showTotal: (count) => t('errorLog:total', { count }) }}
        locale={{ emptyText: t('errorLog:empty') }}
        scroll={{ x: 1100 }}
        data-testid="error-log-table"
      />
    </Modal>
  );
}

/** Header badge with the count of local errors (max 99); opens the full-screen error-log dialog. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useErrorLog((s) => s.logs.length);
  const [open, setOpen] = useState(false);
  return (
    <>
      <HeaderToolButton
        label={t('errorLog:button')}
        onClick={() => setOpen(true)}
        data-testid="error-log-button"
        data-count={count}
      >
        <Badge count={count} overflowCount={website.errorBadgeMax} size="small">
          <BugOutlined style={{ fontSize: 16 }} />
        </Badge>
      </HeaderToolButton>
      <ErrorLogDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
