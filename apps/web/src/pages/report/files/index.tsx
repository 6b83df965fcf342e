import { App, Button, DatePicker, Form, Modal, Progress, Radio, Select, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  buttonCodes,
  REPORT_DOWNLOAD_PATH,
  REPORT_GENERATE_PATH,
  ReportFileStatus,
  reportFileResource,
  reportTemplateResource,
  type PageResult,
} from '@mes/contracts';
import { apiPost } from '../../../api/server-state';
import { useResourceRead } from '../../../api/use-api';
import { download } from '../../../engine/download';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('reportFiles');

const running = (row: Row) => row.state === ReportFileStatus.queued || row.state === ReportFileStatus.running;

/** Progress while a file is made; its error, on hover, when it failed. */
const RENDER = {
  progress: (_: unknown, row: Row) =>
    row.state === ReportFileStatus.failed ? (
      <Tooltip title={String(row.error ?? '')}>
        <Tag color="error" data-testid="report-failed">
          {String(row.error ?? '').slice(0, 24)}
        </Tag>
      </Tooltip>
    ) : (
      <Progress percent={Number(row.progress ?? 0)} size="small" status={running(row) ? 'active' : undefined} />
    ),
};

function GenerateDialog({ open, onClose }: { open: boolean; onClose(done: boolean): void }) {
  const { i18n } = useTranslation();
  const text = i18n.language.startsWith('en') ? TEXT.en : TEXT.zh;
  const { message } = App.useApp();
  const [form] = Form.useForm<{ templateId: string; format: string; range?: [Dayjs, Dayjs] }>();
  const templates =
    useResourceRead<PageResult<Row>, { value: string; label: string }[]>(
      reportTemplateResource,
      'list',
      { size: 200 },
      { enabled: open, select: (page) => page.records.map((r) => ({ value: r.id, label: String(r.name) })) },
    ).data ?? [];
  const submit = async () => {
    const v = await form.validateFields();
    const params = v.range ? { from: v.range[0].format('YYYY-MM-DD'), to: v.range[1].format('YYYY-MM-DD') } : {};
    await apiPost(REPORT_GENERATE_PATH, { templateId: v.templateId, format: v.format, params });
    void message.success(text.queued);
    onClose(true);
  };
  return (
    <Modal
      open={open}
      title={text.generate}
      okText={text.ok}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ format: 'xlsx' }}>
        <Form.Item name="templateId" label={text.template} rules={[{ required: true, message: text.pickTemplate }]}>
          <Select options={templates} showSearch optionFilterProp="label" data-testid="report-template" />
        </Form.Item>
        <Form.Item name="format" label={text.format}>
          <Radio.Group
            options={[
              { value: 'xlsx', label: 'Excel' },
              { value: 'pdf', label: 'PDF' },
            ]}
          />
        </Form.Item>
        <Form.Item name="range" label={text.range}>
          <DatePicker.RangePicker />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The list reads itself again every 3 s while a file is being made (its progress and outcome show)
 * and every 30 s otherwise, so files the schedules make appear without a reload.
 */
const refreshEvery = (rows: Row[]) => (rows.some(running) ? 3000 : 30_000);

/**
 * 报表文件: generated reports (docs/reports.md) with their template, parameters, status, size,
 * who and when; 生成报表 queues one, the list follows its progress until it is done or failed.
 */
export default function ReportFilesScreen() {
  const { i18n } = useTranslation();
  const text = i18n.language.startsWith('en') ? TEXT.en : TEXT.zh;
  const [open, setOpen] = useState(false);
  return (
    <ResourcePage
      resource={reportFileResource}
      render={RENDER}
      refreshEvery={refreshEvery}
      toolbar={(ctx: ResourcePageContext) => (
        <>
          {ctx.can(buttonCodes.reportFile.generate) && (
            <Button type="primary" onClick={() => setOpen(true)} data-testid="report-generate">
              {text.generate}
            </Button>
          )}
          <GenerateDialog
            open={open}
            onClose={(done) => {
              setOpen(false);
              if (done) ctx.reload();
            }}
          />
        </>
      )}
      rowActions={(row: Row, ctx: ResourcePageContext) =>
        row.state === ReportFileStatus.done && ctx.can(buttonCodes.reportFile.download) ? (
          <Button
            type="link"
            size="small"
            onClick={() => void download(REPORT_DOWNLOAD_PATH, { id: row.id }, String(row.name))}
          >
            {text.download}
          </Button>
        ) : null
      }
    />
  );
}
