import { Button, Card, DatePicker, Form, Input, Select, message } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { leaveDays, leaveProblem, type LeaveStartBody } from '@mes/contracts';
import { apiPost } from '../../api/server-state';
import { useApiRead } from '../../api/use-api';
import { useLeaveTypes } from './leave-view';
import { FlowPaths, useWorkWrite, type UserChoice } from './work-api';

interface Draft {
  startTime?: Dayjs;
  endTime?: Dayjs;
  leaveType: string;
  reason?: string;
  taskUser?: string;
}

const TIME = 'YYYY-MM-DD HH:mm:ss';

/**
 * `/work/process/leave/form/:processDefinitionId`: a leave request. The form refuses what the
 * server refuses, with the same words (`leaveProblem` of the contracts is run by both).
 */
export default function LeaveForm() {
  const { t, i18n } = useTranslation('work');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { processDefinitionId = '' } = useParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<Draft>();
  const types = useLeaveTypes();
  const users = useApiRead<UserChoice[]>(FlowPaths.workUserSelect).data ?? [];
  const start = Form.useWatch('startTime', form);
  const end = Form.useWatch('endTime', form);
  const submit = useWorkWrite((body: LeaveStartBody) =>
    apiPost<{ businessId: string; processInstanceId: string }>(FlowPaths.leaveStart, body),
  );
  const onFinish = (draft: Draft) => {
    const body: LeaveStartBody = {
      processDefinitionId,
      startTime: draft.startTime?.format(TIME) ?? '',
      endTime: draft.endTime?.format(TIME) ?? '',
      leaveType: Number(draft.leaveType),
      reason: (draft.reason ?? '').trim(),
      taskUser: draft.taskUser ?? '',
    };
    const problem = leaveProblem(body);
    if (problem) {
      void message.error(problem[lang]);
      return;
    }
    submit.mutate(body, {
      onSuccess: (r) => {
        void message.success(t('leave.submitted'));
        void navigate(`/work/process/leave/detail/${r.processInstanceId}/${r.businessId}`);
      },
    });
  };
  const days = start && end && end.isAfter(start) ? leaveDays(start.toDate(), end.toDate()) : undefined;
  const required = (field: string) => ({ required: true, message: t('leave.required', { field }) });
  return (
    <Card size="small" title={t('leave.formTab')} data-testid="leave-form">
      <Form<Draft>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{ leaveType: '1' }}
        onFinish={onFinish}
      >
        <Form.Item name="startTime" label={t('leave.startTime')} rules={[required(t('leave.startTime'))]}>
          <DatePicker showTime format={TIME} style={{ width: '100%' }} data-testid="leave-start" />
        </Form.Item>
        <Form.Item
          name="endTime"
          label={t('leave.endTime')}
          dependencies={['startTime']}
          extra={days !== undefined ? `${t('leave.days')}: ${days}` : undefined}
          rules={[
            required(t('leave.endTime')),
            ({ getFieldValue }) => ({
              validator: (_, value?: Dayjs) => {
                const from = getFieldValue('startTime') as Dayjs | undefined;
                return !value || !from || value.isAfter(from)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('leave.endAfterStart')));
              },
            }),
          ]}
        >
          <DatePicker showTime format={TIME} style={{ width: '100%' }} data-testid="leave-end" />
        </Form.Item>
        <Form.Item name="leaveType" label={t('leave.leaveType')} rules={[required(t('leave.leaveType'))]}>
          <Select options={types} data-testid="leave-type" />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('leave.reason')}
          rules={[required(t('leave.reason')), { max: 500, message: t('leave.reasonTooLong') }, { whitespace: true }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="leave-reason-input" />
        </Form.Item>
        <Form.Item name="taskUser" label={t('leave.taskUser')} rules={[required(t('leave.taskUser'))]}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder={t('leave.pickApprover')}
            options={users.map((u) => ({ value: u.id, label: `${u.name} (${u.account})` }))}
            data-testid="leave-approver"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={submit.isPending} data-testid="leave-submit">
          {t('leave.submit')}
        </Button>
      </Form>
    </Card>
  );
}
