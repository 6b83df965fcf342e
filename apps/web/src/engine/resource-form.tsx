import { App, Button, Col, Form, Modal, Row as GridRow, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkField,
  childCollectionsOf,
  controlOf,
  isEmptyValue,
  isFieldRequired,
  operationsOf,
  type ApiResult,
  type FieldDef,
  type FieldMap,
  type LocalText,
  type ResourceDef,
  validateChildren,
} from '@mes/contracts';
import { request } from '../api/http';
import { resourceQuery } from '../api/server-state';
import { settled } from '../api/use-api';
import { useDialogSize } from './action-dialog';
import { FieldInput } from './field-input';
import { ChildTable } from './child-table';
import {
  addFormValues,
  childFormValues,
  childSubmitBody,
  childWireRows,
  dependentsOf,
  derivedFormValues,
  fieldPresence,
  rowFormValues,
  submitBody,
  toWireValue,
  wireRow,
} from './form-values';
import { matchingOptions, type Option } from './options';
import type { FormMode, ResourcePageProps, Row } from './resource-page-types';
import { DialogBody } from './dialog-body';

/** What the dialog is showing; `undefined` when closed. */
export interface FormTarget {
  mode: FormMode;
  row?: Row;
  initial?: Record<string, unknown>;
  /** Saved to `<api>/<submitPath>`; default `submit`. */
  submitPath?: string;
}

export interface ResourceFormProps {
  def: ResourceDef;
  /** The definition's fields with the screen's overrides. */
  fields: FieldMap;
  target: FormTarget | undefined;
  lang: keyof LocalText;
  options: Record<string, Option[]>;
  width: number;
  beforeSubmit: ResourcePageProps['beforeSubmit'];
  inputs?: ResourcePageProps['inputs'];
  addValues?: ResourcePageProps['addValues'];
  onClose(): void;
  onSaved(): void;
}

const TYPED = new Set(['input', 'textarea', 'number', 'password']);

/** The add / edit / view dialog of a resource, built from its fields. */
export function ResourceForm(props: ResourceFormProps) {
  const { def, fields, target, lang, options, width, beforeSubmit, inputs, addValues, onClose, onSaved } = props;
  const { t } = useTranslation('crud');
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, unknown>>();
  // What the form holds now, in wire form: the conditions of dependent fields read it.
  const [row, setRow] = useState<Record<string, unknown>>({});
  const [saving, setSaving] = useState(false);
  const mode = target?.mode;
  const { phone, width: dialogWidth, style: dialogStyle } = useDialogSize(width);

  // Edit and view show the stored row (its detail, read afresh for each opening), add shows the
  // defaults and pre-filled values.
  const stored = target && target.mode !== 'add' ? target.row : undefined;
  const needsDetail = !!stored?.id && operationsOf(def).includes('detail');
  const detail = useQuery({
    ...resourceQuery<Row>(def, 'detail', { id: needsDetail ? String(stored?.id) : undefined }),
    enabled: needsDetail,
    staleTime: 0,
  });
  const detailRow = settled(detail);
  const detailFailed = needsDetail && detail.isError && !detail.isFetching;
  // The form is seeded once per opening (set while rendering, when the opening changes): a later
  // answer (another screen's write reloads the resource) must not overwrite what is being typed.
  const [seed, setSeed] = useState<{ target: FormTarget; values: Record<string, unknown> }>();
  const values = target && seed?.target === target ? seed.values : undefined;
  if (target && seed?.target !== target && !detailFailed && (!needsDetail || detailRow !== undefined)) {
    // Child collections (sub-tables) travel beside the fields, as arrays under their names.
    let v: Record<string, unknown>;
    if (target.mode === 'add') {
      // addValues is read when a dialog opens, not followed.
      const initial = { ...addValues?.(), ...target.initial };
      v = { ...addFormValues(fields, initial), ...childFormValues(def, initial) };
    } else {
      const shown = detailRow ?? target.row ?? ({} as Row);
      v = { ...rowFormValues(fields, shown), ...childFormValues(def, shown) };
    }
    setSeed({ target, values: v });
    setRow(wireRow(fields, v));
  }
  useEffect(() => {
    if (detailFailed) onClose();
  }, [detailFailed, onClose]);

  const save = async () => {
    if (!target || target.mode === 'view') return;
    const adding = target.mode === 'add';
    const entered = await form.validateFields().catch(() => undefined);
    if (!entered) return;
    let body = {
      ...submitBody(fields, entered, adding, adding ? target.initial : undefined),
      ...childSubmitBody(def, entered),
    };
    if (!adding && target.row) body.id = target.row.id;
    if (beforeSubmit) {
      try {
        body = beforeSubmit(body, target.mode);
      } catch (error) {
        // A screen's own check refused: say why and keep what was typed.
        void message.error(error instanceof Error ? error.message : String(error));
        return;
      }
    }
    setSaving(true);
    try {
      const answer = await request<ApiResult<unknown>>(`${def.api}/${target.submitPath ?? 'submit'}`, {
        method: 'POST',
        data: body,
      });
      void message.success(answer.msg || t(adding ? 'added' : 'updated'));
      onSaved();
    } catch {
      // A refused submit (400) was toasted by the client; the dialog stays open to fix it.
    } finally {
      setSaving(false);
    }
  };

  // An empty secret on edit keeps the stored one (the server skips it too).
  const keepsStored = (field: FieldDef) => field.kind === 'secret' && mode === 'edit';

  const rulesOf = (field: FieldDef) => [
    {
      validator: (_: unknown, value: unknown) => {
        const wire = toWireValue(field, value);
        if (keepsStored(field) && isEmptyValue(wire)) return Promise.resolve();
        // Read at validation time: the field another one depends on may have just changed.
        const problem = checkField(field, wire, lang, wireRow(fields, form.getFieldsValue(true)));
        return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
      },
    },
  ];

  /**
   * Fills the derived fields the change feeds, shows and hides dependent fields, and checks again those already checked (touched or showing
   * a message) whose requirement the change may have switched; untouched ones wait for their blur.
   */
  const onValuesChange = (changed: Record<string, unknown>) => {
    const derived = derivedFormValues(fields, Object.keys(changed), wireRow(fields, form.getFieldsValue(true)));
    for (const [name, value] of Object.entries(derived)) form.setFieldValue(name, value);
    setRow(wireRow(fields, form.getFieldsValue(true)));
    const again = dependentsOf(fields, Object.keys(changed)).filter(
      (name) => form.isFieldTouched(name) || form.getFieldError(name).length > 0,
    );
    if (again.length) void form.validateFields(again).catch(() => undefined);
  };

  const children = childCollectionsOf(def);
  /** A sub-table is checked as a whole by the rules the server applies; rows show their own messages. */
  const childRules = (name: string, child: ResourceDef) => [
    {
      validator: (_: unknown, value: unknown) => {
        const wire = childWireRows(child.fields, value as Parameters<typeof childWireRows>[1]);
        const problem = validateChildren(def, { [name]: wire }, false, lang).errors[name];
        return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
      },
    },
  ];

  const footer =
    mode === 'view'
      ? [
          <Button key="close" onClick={onClose} data-testid="crud-dialog-close">
            {t('close')}
          </Button>,
        ]
      : [
          <Button key="cancel" onClick={onClose} data-testid="crud-dialog-cancel">
            {t('cancel')}
          </Button>,
          <Button key="save" type="primary" loading={saving} onClick={save} data-testid="crud-dialog-submit">
            {t('save')}
          </Button>,
        ];

  return (
    <Modal
      open={!!target}
      title={mode ? t(mode) : ''}
      width={dialogWidth}
      style={dialogStyle}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      maskClosable={mode === 'view'}
      data-testid="crud-dialog"
      className="mes-crud-dialog"
    >
      {!values ? (
        <div className="mes-crud-dialog-loading">
          <Spin />
        </div>
      ) : (
        <DialogBody ready={mode !== 'view'} onSubmit={() => void save()}>
          <Form
            form={form}
            name="crud-form"
            initialValues={values}
            layout={phone ? 'vertical' : 'horizontal'}
            labelCol={phone ? undefined : { flex: '110px' }}
            wrapperCol={phone ? undefined : { flex: 'auto' }}
            labelWrap
            disabled={mode === 'view'}
            onFinish={save}
            onValuesChange={onValuesChange}
          >
            <GridRow gutter={16}>
              {Object.entries(fields).map(([name, field]) => {
                const presence = fieldPresence(field, mode ?? 'view', row);
                if (presence === 'hidden') return null;
                const editable = presence === 'edit';
                const Custom = inputs?.[name];
                return (
                  <Col key={name} span={phone || field.wide ? 24 : 12}>
                    <Form.Item
                      name={name}
                      label={field.label[lang]}
                      required={editable && isFieldRequired(field, row) && !keepsStored(field)}
                      rules={editable ? rulesOf(field) : undefined}
                      validateTrigger={TYPED.has(controlOf(field)) ? 'onBlur' : ['onChange', 'onBlur']}
                    >
                      {Custom ? (
                        <Custom
                          field={field}
                          options={options[name]}
                          lang={lang}
                          mode={mode ?? 'view'}
                          disabled={!editable}
                        />
                      ) : (
                        <FieldInput
                          field={field}
                          options={matchingOptions(field, options[name], row)}
                          lang={lang}
                          disabled={!editable}
                        />
                      )}
                    </Form.Item>
                  </Col>
                );
              })}
              {children.map(({ name, collection, child }) => (
                <Col key={name} span={24}>
                  <Form.Item
                    name={name}
                    label={collection.label[lang]}
                    // A sub-table wider than the dialog scrolls beside its label instead of
                    // wrapping below it (a flex item never shrinks under its content otherwise).
                    wrapperCol={phone ? undefined : { flex: '1 1 0', style: { minWidth: 0 } }}
                    required={mode !== 'view' && (collection.min ?? 0) > 0}
                    rules={mode === 'view' ? undefined : childRules(name, child)}
                  >
                    <ChildTable
                      def={def}
                      name={name}
                      collection={collection}
                      child={child}
                      lang={lang}
                      disabled={mode === 'view'}
                    />
                  </Form.Item>
                </Col>
              ))}
            </GridRow>
          </Form>
        </DialogBody>
      )}
    </Modal>
  );
}
