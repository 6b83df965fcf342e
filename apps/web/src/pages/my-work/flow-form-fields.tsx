import { Checkbox, DatePicker, Descriptions, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ScreenFallback } from './screen-fallback';
import { FORM_TEXT_MAX, type FlowFormField, type FormValue } from '@mes/contracts';
import './work.css';

const DATE = 'YYYY-MM-DD';
type Draft = Record<string, unknown>;

/** Longer texts get a text area: a fault description is rarely one line. */
const multiline = (field: FlowFormField) => (field.maxlength ?? FORM_TEXT_MAX) > 100;

/**
 * The antd inputs of a model's form fields (docs/workflow.md, "Forms"). Labels are the model's
 * own words; the checks here are a courtesy, the server checks again (`formValuesProblem`).
 */
export function FormFields({ fields }: { fields: readonly FlowFormField[] }) {
  const { t } = useTranslation('work');
  return (
    <>
      {fields.map((field) => {
        const rules =
          field.required && field.type !== 'boolean'
            ? [{ required: true, message: t('leave.required', { field: field.label }) }]
            : [];
        const common = { 'data-testid': `form-field-${field.id}`, disabled: field.readonly };
        const input =
          field.type === 'boolean' ? (
            <Checkbox {...common}>{field.label}</Checkbox>
          ) : field.type === 'long' ? (
            <InputNumber {...common} precision={0} min={field.min} max={field.max} style={{ width: '100%' }} />
          ) : field.type === 'date' ? (
            <DatePicker {...common} format={DATE} style={{ width: '100%' }} />
          ) : field.type === 'enum' ? (
            <Select
              {...common}
              allowClear={!field.required}
              placeholder={t('form.pick')}
              options={field.values.map((v) => ({ value: v.id, label: v.name }))}
            />
          ) : multiline(field) ? (
            <Input.TextArea {...common} rows={3} maxLength={field.maxlength ?? FORM_TEXT_MAX} showCount />
          ) : (
            <Input {...common} maxLength={field.maxlength ?? FORM_TEXT_MAX} />
          );
        return (
          <Form.Item
            key={field.id}
            name={field.id}
            label={field.type === 'boolean' ? undefined : field.label}
            valuePropName={field.type === 'boolean' ? 'checked' : 'value'}
            rules={rules}
            required={field.required && field.type !== 'boolean'}
          >
            {input}
          </Form.Item>
        );
      })}
    </>
  );
}

/** A form's starting draft: the instance's values, else the model's defaults. */
export function initialDraft(fields: readonly FlowFormField[], values: Record<string, FormValue> = {}): Draft {
  const draft: Draft = {};
  for (const f of fields) {
    const v = values[f.id] ?? f.defaultValue;
    if (v === undefined || v === null) continue;
    if (f.type === 'date') draft[f.id] = dayjs(String(v), DATE);
    else if (f.type === 'boolean') draft[f.id] = v === true || v === 'true';
    else if (f.type === 'long') draft[f.id] = Number(v);
    else draft[f.id] = String(v);
  }
  return draft;
}

/** What antd holds, as the server takes it: dates as `yyyy-MM-dd`, read-only fields left out. */
export function draftValues(fields: readonly FlowFormField[], draft: Draft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.readonly) continue;
    const v = draft[f.id];
    if (v === undefined || v === null || v === '') continue;
    out[f.id] = f.type === 'date' ? (v as Dayjs).format(DATE) : v;
  }
  return out;
}

/** The fields with their values, read-only. */
export function FormValuesView({
  fields,
  values,
  testId,
}: {
  fields: readonly FlowFormField[];
  values: Record<string, FormValue>;
  testId?: string;
}) {
  const { t } = useTranslation('work');
  const shown = (f: FlowFormField) => {
    const v = values[f.id];
    if (v === undefined || v === null || v === '') return '';
    if (f.type === 'boolean') return v ? t('form.yes') : t('form.no');
    if (f.type === 'enum') return f.values.find((c) => c.id === v)?.name ?? String(v);
    return String(v);
  };
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered data-testid={testId}>
      {fields.map((f) => (
        <Descriptions.Item key={f.id} label={f.label} span={f.type === 'string' && multiline(f) ? 2 : 1}>
          <span data-testid={`form-value-${f.id}`}>{shown(f)}</span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** What a screen of this kind shows while it loads, or when it cannot be read. */
export function FormFallback(props: { loading: boolean; error: unknown }) {
  return <ScreenFallback {...props} notFound="form.notFound" testId="flow-form-not-found" />;
}
