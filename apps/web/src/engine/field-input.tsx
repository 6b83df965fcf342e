import { DatePicker, Input, InputNumber, Radio, Select, Switch, TreeSelect } from 'antd';
import { memo, useMemo } from 'react';
import { controlOf, decimalShapeOf, requiredMessage, type FieldDef, type LocalText } from '@mes/contracts';
import { yesNoOptions } from './cell-values';
import { DATE_TIME_FORMAT, DAY_FORMAT } from './form-values';
import { listColumnsOf, listRowsOf } from './json-list';
import { JsonListInput } from './json-list-input';
import type { Option } from './options';

interface TreeNode {
  title: string;
  value: string;
  key: string;
  children?: TreeNode[];
}

const toTree = (options: readonly Option[]): TreeNode[] =>
  options.map((o) => ({
    title: o.label,
    value: o.value,
    key: o.value,
    ...(o.children ? { children: toTree(o.children) } : {}),
  }));

export interface FieldInputProps {
  field: FieldDef;
  options?: Option[];
  lang: keyof LocalText;
  disabled?: boolean;
  /** The search bar's variant: radios become a clearable select, text areas a line. */
  inSearch?: boolean;
  // Injected by Form.Item.
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  onBlur?: () => void;
}

/** Text as indented JSON when it parses, else as it is; monospace, scrolling within its box. */
function JsonView({ id, value }: { id?: string; value: unknown }) {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON (a malformed payload is logged as received): shown as it came.
  }
  return (
    <pre
      id={id}
      className="mes-json-view"
      data-testid="crud-json-view"
      tabIndex={0}
      style={{
        margin: 0,
        maxHeight: 360,
        overflow: 'auto',
        padding: '8px 10px',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: 12,
        lineHeight: 1.5,
        whiteSpace: 'pre',
        background: 'rgba(128, 128, 128, 0.08)',
        border: '1px solid rgba(128, 128, 128, 0.25)',
        borderRadius: 6,
      }}
    >
      {shown}
    </pre>
  );
}

/** The input a field's control calls for (definition → antd component). */
export const FieldInput = memo(function FieldInput(props: FieldInputProps) {
  const { field, options = [], lang, disabled, inSearch, id, onChange, onBlur } = props;
  const value = props.value as never;
  const control = controlOf(field);
  const placeholder = requiredMessage(field, lang);
  const tree = useMemo(() => toTree(options), [options]);
  const common = { id, disabled, placeholder, onBlur };

  // A field declared `display: 'json'` (a message payload) reads as indented JSON when viewed.
  if (field.display === 'json' && disabled && !inSearch) return <JsonView id={id} value={props.value} />;

  switch (control) {
    case 'textarea':
      return inSearch ? (
        <Input {...common} value={value} onChange={onChange} allowClear />
      ) : (
        <Input.TextArea {...common} value={value} onChange={onChange} rows={3} maxLength={field.max} />
      );
    case 'number':
      // An exact decimal stays text in the input too (stringMode), so no digit passes through a float.
      return field.kind === 'decimal' ? (
        <InputNumber<string>
          {...common}
          value={value}
          onChange={onChange}
          stringMode
          precision={decimalShapeOf(field).scale}
          min={field.range ? String(field.range[0]) : undefined}
          max={field.range ? String(field.range[1]) : undefined}
          style={{ width: '100%' }}
        />
      ) : (
        <InputNumber
          {...common}
          value={value}
          onChange={onChange}
          min={field.range?.[0]}
          max={field.range?.[1]}
          style={{ width: '100%' }}
        />
      );
    case 'switch':
      // The search bar needs a third state (no filter): a yes / no select there.
      return inSearch ? (
        <Select {...common} value={value} onChange={onChange} options={yesNoOptions(lang)} allowClear />
      ) : (
        <Switch id={id} disabled={disabled} checked={value === true} onChange={(checked) => onChange?.(checked)} />
      );
    case 'date':
      return <DatePicker {...common} value={value} onChange={onChange} format={DAY_FORMAT} style={{ width: '100%' }} />;
    case 'json': {
      if (inSearch) return null;
      // A list of flat objects (an enumeration) is edited as rows, not as JSON text.
      const columns = listColumnsOf(field.schema);
      if (columns && listRowsOf(props.value) !== undefined)
        return (
          <JsonListInput
            columns={columns}
            title={field.label[lang]}
            lang={lang}
            disabled={disabled}
            id={id}
            value={props.value}
            onChange={onChange}
            onBlur={onBlur}
          />
        );
      return (
        <Input.TextArea
          {...common}
          value={value}
          onChange={onChange}
          rows={6}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
        />
      );
    }
    case 'radio':
      if (!inSearch)
        return (
          <Radio.Group
            id={id}
            disabled={disabled}
            value={value}
            onChange={(e) => onChange?.(e.target.value)}
            options={options}
          />
        );
      return (
        <Select
          {...common}
          value={value}
          onChange={onChange}
          options={options}
          allowClear
          showSearch
          optionFilterProp="label"
        />
      );
    case 'select':
    case 'multi-select':
      return (
        <Select
          {...common}
          value={value}
          onChange={onChange}
          options={options}
          mode={control === 'multi-select' ? 'multiple' : undefined}
          allowClear
          showSearch
          optionFilterProp="label"
        />
      );
    case 'tree-select':
    case 'multi-tree-select':
      return (
        <TreeSelect
          {...common}
          value={value}
          onChange={onChange}
          treeData={tree}
          multiple={control === 'multi-tree-select'}
          allowClear
          showSearch
          treeNodeFilterProp="title"
          popupMatchSelectWidth={false}
        />
      );
    case 'datetime':
      return (
        <DatePicker
          {...common}
          value={value}
          onChange={onChange}
          showTime
          format={DATE_TIME_FORMAT}
          style={{ width: '100%' }}
        />
      );
    case 'password':
      return <Input.Password {...common} value={value} onChange={onChange} autoComplete="new-password" />;
    default:
      return <Input {...common} value={value} onChange={onChange} maxLength={field.max} allowClear={inSearch} />;
  }
});
