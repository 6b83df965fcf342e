import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Spin } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkField,
  formatDateTime,
  isFieldVisible,
  NoticeAudience,
  noticeResource,
  type FieldDef,
  type LocalText,
} from '@mes/contracts';
import { requestData } from '../../../api/http';
import { apiQuery, OPTIONS_STALE_MS } from '../../../api/server-state';
import { ActionDialog } from '../../../crud/action-dialog';
import { FieldInput } from '../../../crud/field-input';
import { addFormValues, rowFormValues, toWireValue, wireRow } from '../../../crud/form-values';
import { optionsFromUrl } from '../../../crud/options';
import { useFieldOptions } from '../../../crud/use-field-options';
import { RichTextEditor } from './rich-text-editor';

const fields = noticeResource.fields;
/** The audience is picked from the role or the department tree, as the user screen picks them. */
const AUDIENCE_SOURCES = {
  [NoticeAudience.roles]: '/blade-system/role/tree',
  [NoticeAudience.depts]: '/blade-system/dept/tree',
} as const;
const audienceField: FieldDef = { ...fields.audienceIds, control: 'multi-tree-select' };
const PLAIN = ['title', 'category', 'releaseTime', 'audienceType'] as const;

export interface NoticeEditorProps {
  /** `null`: a new notice; an id: that notice; `undefined`: closed. */
  target: string | null | undefined;
  onClose(changed: boolean): void;
}

/**
 * Add / edit of a notice: the definition's fields through the shared inputs and checks, the
 * audience from the role or department tree, and the content in the rich-text editor.
 */
export function NoticeEditor({ target, onClose }: NoticeEditorProps) {
  const { t, i18n } = useTranslation('notice');
  const lang: keyof LocalText = i18n.language.startsWith('en') ? 'en' : 'zh';
  const [form] = Form.useForm<Record<string, unknown>>();
  const open = target !== undefined;
  const editing = typeof target === 'string';
  const { options } = useFieldOptions(fields, lang);
  const audienceType = Number(Form.useWatch('audienceType', form) ?? NoticeAudience.everyone);
  const source = AUDIENCE_SOURCES[audienceType as keyof typeof AUDIENCE_SOURCES] as string | undefined;
  const audienceQuery = useQuery({
    ...apiQuery<unknown>(source ?? '', undefined, { silent: true, staleTime: OPTIONS_STALE_MS }),
    enabled: open && source !== undefined,
  });
  // The picker's placeholder (and its required message) says what is being picked.
  const pickText = t(audienceType === NoticeAudience.depts ? 'deptsPlaceholder' : 'rolesPlaceholder');
  const pickField = useMemo<FieldDef>(
    () => ({ ...audienceField, requiredMessage: { zh: pickText, en: pickText } }),
    [pickText],
  );
  const audienceOptions = useMemo(() => optionsFromUrl(audienceQuery.data), [audienceQuery.data]);

  const stored = useQuery({
    queryKey: ['notice-edit', target],
    queryFn: () =>
      requestData<Record<string, unknown>>(`${noticeResource.api}/detail`, { params: { id: target as string } }),
    enabled: editing,
    gcTime: 0,
    retry: false,
  });
  const loading = editing && stored.isPending;
  const loadError = editing && stored.error ? stored.error.message : undefined;
  // The form (an outside store) gets the defaults, or the stored notice once it is read.
  const row = stored.data;
  useEffect(() => {
    if (!open) return;
    // A new notice is released now unless its writer picks another time.
    if (!editing)
      form.setFieldsValue({ ...addFormValues(fields, { releaseTime: formatDateTime(new Date()) }), content: '' });
    else if (row) form.setFieldsValue({ ...rowFormValues(fields, row), content: String(row.content ?? '') });
  }, [open, editing, row, form]);

  /** The shared check of one field, on the form's values in wire form (as the server runs it). */
  const rule = (name: keyof typeof fields, field: FieldDef = fields[name]) => ({
    validator: async (_: unknown, value: unknown) => {
      const message = checkField(field, toWireValue(field, value), lang, wireRow(fields, form.getFieldsValue(true)));
      if (message) throw new Error(message);
    },
  });

  const save = async () => {
    const values = await form.validateFields();
    const row = wireRow(fields, values);
    const body: Record<string, unknown> = {};
    for (const name of PLAIN) body[name] = row[name];
    if (isFieldVisible(fields.audienceIds, row)) body.audienceIds = row.audienceIds;
    body.content = values.content ?? '';
    if (editing) body.id = target;
    await requestData(`${noticeResource.api}/submit`, { method: 'POST', data: body });
  };

  const label = (name: keyof typeof fields) => fields[name].label[lang];
  return (
    <ActionDialog
      open={open}
      title={editing ? t('editTitle') : t('addTitle')}
      width={noticeResource.dialogWidth ?? 960}
      onSave={save}
      onClose={(changed) => {
        form.resetFields();
        onClose(changed);
      }}
      saveTestId="notice-save"
      saveDisabled={loading || loadError !== undefined}
      forceRender
    >
      {loadError && <Alert type="error" showIcon message={loadError} />}
      <Spin spinning={loading}>
        <Form form={form} layout="vertical" data-testid="notice-form">
          <Form.Item name="title" label={label('title')} rules={[rule('title')]} required>
            <FieldInput field={fields.title} lang={lang} />
          </Form.Item>
          <div className="mes-notice-form-row">
            <Form.Item name="category" label={label('category')} rules={[rule('category')]} required>
              <FieldInput field={fields.category} options={options.category} lang={lang} />
            </Form.Item>
            <Form.Item name="releaseTime" label={label('releaseTime')} rules={[rule('releaseTime')]} required>
              <FieldInput field={fields.releaseTime} lang={lang} />
            </Form.Item>
          </div>
          <Form.Item name="audienceType" label={label('audienceType')} rules={[rule('audienceType')]}>
            <FieldInput field={fields.audienceType} options={options.audienceType} lang={lang} />
          </Form.Item>
          {source !== undefined && (
            <Form.Item
              name="audienceIds"
              label={label('audienceIds')}
              required
              rules={[rule('audienceIds', pickField)]}
            >
              <FieldInput key={audienceType} field={pickField} options={audienceOptions} lang={lang} />
            </Form.Item>
          )}
          <Form.Item name="content" label={label('content')} extra={t('contentHint')} rules={[rule('content')]}>
            <RichTextEditor placeholder={t('contentPlaceholder')} />
          </Form.Item>
        </Form>
      </Spin>
    </ActionDialog>
  );
}
