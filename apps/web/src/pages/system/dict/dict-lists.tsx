import { Button, Empty, Modal } from 'antd';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef, ResourceDef } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { FormMode, ResourcePageContext, Row } from '../../../engine/resource-page-types';

/** The dialog width of the dictionary add / edit / view forms (spec section 2). */
export const DICT_DIALOG_WIDTH = 880;

/** A parent has no parent and no key of its own (the server sets `-1`): neither is shown. */
const PARENT_OVERRIDES: Partial<Record<string, Partial<FieldDef>>> = {
  parentId: { form: false, list: false },
  dictKey: { form: false, list: false },
};

interface DictParentListProps {
  resource: ResourceDef;
  /** Row buttons after view / edit / delete (字典配置, or choosing the row for a side panel). */
  rowActions?: (row: Row, ctx: ResourcePageContext) => ReactNode;
}

/** The dictionaries themselves (`parent-list`): code, name, sort, sealed. */
export function DictParentList({ resource, rowActions }: DictParentListProps) {
  return (
    <ResourcePage
      resource={resource}
      listUrl={`${resource.api}/parent-list`}
      treeTable={false}
      fieldOverrides={PARENT_OVERRIDES}
      rowActions={rowActions}
      dialogWidth={DICT_DIALOG_WIDTH}
    />
  );
}

interface DictChildListProps {
  resource: ResourceDef;
  parent: Row;
}

/**
 * The definition as the entry list uses it: no search, no sorting, no created-time range. The
 * generic page mirrors its search and sort into the URL, and two lists of one resource on one
 * screen would take each other's filters (and rewrite the URL in turn); with nothing of its own
 * to mirror, the entry list leaves the URL to the parent list.
 */
const entryListResource = (resource: ResourceDef): ResourceDef => ({
  ...resource,
  audit: false,
  fields: Object.fromEntries(
    Object.entries(resource.fields).map(([name, field]) => [name, { ...field, search: false, sort: false }]),
  ),
});

/**
 * The entries of one dictionary (`child-list?parentId=`). An entry belongs to its dictionary:
 * `code` and `parentId` are shown but not editable, and every add goes under this parent.
 */
export function DictChildList({ resource, parent }: DictChildListProps) {
  const entries = useMemo(() => entryListResource(resource), [resource]);
  const fieldOverrides: Partial<Record<string, Partial<FieldDef>>> = {
    code: { form: 'readonly', default: String(parent.code ?? '') },
    parentId: { form: 'readonly', default: parent.id },
  };
  const beforeSubmit = useCallback(
    (values: Record<string, unknown>, mode: FormMode) =>
      mode === 'add' ? { ...values, code: parent.code, parentId: parent.id } : values,
    [parent],
  );
  return (
    <ResourcePage
      key={parent.id}
      resource={entries}
      listUrl={`${resource.api}/child-list`}
      params={{ parentId: parent.id }}
      fieldOverrides={fieldOverrides}
      beforeSubmit={beforeSubmit}
      dialogWidth={DICT_DIALOG_WIDTH}
    />
  );
}

/** Shown in a side panel until a dictionary is chosen. */
export function ChooseParent() {
  const { t } = useTranslation('dict');
  return <Empty description={t('chooseParent')} data-testid="dict-choose-parent" />;
}

interface DictChildDialogProps {
  resource: ResourceDef;
  parent: Row | null;
  onClose(): void;
}

/** 字典配置: the entries of a dictionary in a dialog over the parent list. */
export function DictChildDialog({ resource, parent, onClose }: DictChildDialogProps) {
  const { t } = useTranslation('dict');
  return (
    <Modal
      open={!!parent}
      title={t('childTitle', { name: parent?.dictValue ?? '' })}
      width={1100}
      footer={null}
      destroyOnHidden
      onCancel={onClose}
    >
      <div data-testid="dict-child-dialog">{parent && <DictChildList resource={resource} parent={parent} />}</div>
    </Modal>
  );
}

/** The 字典配置 row button of a parent list (stable, so the table keeps its cells). */
export function useChildConfigAction(onOpen: (row: Row) => void, label: string, testId = 'dict-child-config') {
  return useCallback(
    (row: Row) => (
      <Button type="link" size="small" onClick={() => onOpen(row)} data-testid={testId}>
        {label}
      </Button>
    ),
    [onOpen, label, testId],
  );
}
