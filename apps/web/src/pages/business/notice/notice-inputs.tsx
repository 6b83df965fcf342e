import { useQuery } from '@tanstack/react-query';
import { Form, Typography } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { deptResource, FlowPaths, NoticeAudience, roleResource, type FieldDef } from '@mes/contracts';
import { apiQuery, OPTIONS_STALE_MS, resourceRoute } from '../../../api/server-state';
import { FieldInput } from '../../../engine/field-input';
import { optionsFromUrl } from '../../../engine/options';
import type { CustomInputProps } from '../../../engine/resource-page-types';
import { RichTextEditor } from './rich-text-editor';

/**
 * The notice's content in the generic dialog: the rich-text editor, or, when viewed, the stored
 * (server-sanitised) HTML in the editor's read-only view, formatted as the reader page shows it.
 */
export function NoticeContentInput({ id, value, onChange, onBlur, disabled }: CustomInputProps) {
  const { t } = useTranslation('notice');
  const html = typeof value === 'string' ? value : '';
  if (disabled) return <RichTextEditor id={id} value={html} readOnly />;
  return (
    <>
      <RichTextEditor id={id} value={html} onChange={onChange} onBlur={onBlur} placeholder={t('contentPlaceholder')} />
      <Typography.Text type="secondary" className="mes-notice-content-hint">
        {t('contentHint')}
      </Typography.Text>
    </>
  );
}

/**
 * The audience is picked from the role or the department tree, as the user screen picks them, or
 * from the tenant's users (the list the workflow's pickers read).
 */
const AUDIENCE_SOURCES: Partial<Record<number, string>> = {
  [NoticeAudience.roles]: resourceRoute(roleResource, 'tree'),
  [NoticeAudience.depts]: resourceRoute(deptResource, 'tree'),
  [NoticeAudience.users]: FlowPaths.workUserSelect,
};
const PICK_TEXT: Partial<Record<number, string>> = {
  [NoticeAudience.depts]: 'deptsPlaceholder',
  [NoticeAudience.users]: 'usersPlaceholder',
};

/**
 * Who a notice is for: roles, departments or users, from the source `audienceType` names (the
 * field is shown only for those types, by its `visibleWhen`). The screen makes the field a
 * multi-tree-select, so the form holds the ids as a list and submits them as `1,2`.
 */
export function NoticeAudiencePicker(props: CustomInputProps) {
  const { field, lang, value, onChange, disabled, mode } = props;
  const { t } = useTranslation('notice');
  const audienceType = Number(Form.useWatch('audienceType', Form.useFormInstance()) ?? NoticeAudience.everyone);
  const source = AUDIENCE_SOURCES[audienceType];
  const tree = useQuery({
    ...apiQuery<unknown>(source ?? '', undefined, { silent: true, staleTime: OPTIONS_STALE_MS }),
    enabled: source !== undefined,
  });
  const options = useMemo(() => optionsFromUrl(tree.data), [tree.data]);
  // The placeholder says what is being picked.
  const pickText = t(PICK_TEXT[audienceType] ?? 'rolesPlaceholder');
  const pickField = useMemo<FieldDef>(
    () => ({ ...field, requiredMessage: { zh: pickText, en: pickText } }),
    [field, pickText],
  );

  // Role ids mean nothing as departments (and the reverse): another type starts an empty pick.
  const shownType = useRef(audienceType);
  useEffect(() => {
    if (shownType.current === audienceType) return;
    shownType.current = audienceType;
    if (mode !== 'view') onChange?.([]);
  }, [audienceType, mode, onChange]);

  return (
    <FieldInput
      key={audienceType}
      field={pickField}
      options={options}
      lang={lang}
      disabled={disabled}
      id={props.id}
      value={value}
      onChange={onChange}
      onBlur={props.onBlur}
    />
  );
}
