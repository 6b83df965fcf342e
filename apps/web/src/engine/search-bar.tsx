import { DeleteOutlined, DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form } from 'antd';
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldMap, LocalText } from '@mes/contracts';
import { FieldInput } from './field-input';
import { DATE_TIME_FORMAT } from './form-values';
import type { Option } from './options';
import {
  CREATED_RANGE,
  searchFilters,
  searchFormValues,
  seriesRangePlaceholder,
  seriesRangePresets,
} from './search-values';

export interface SearchBarProps {
  /** The fields with `search: true`. */
  fields: FieldMap;
  withCreatedRange: boolean;
  options: Record<string, Option[]>;
  lang: keyof LocalText;
  /** The filters in force (from the URL on first show). */
  filters: Record<string, string>;
  onSearch(filters: Record<string, string>): void;
  /**
   * Hours a series list (the logs) shows when no created range is chosen: the picker says so,
   * so that nobody wonders where older rows went, and offers wider ranges.
   */
  seriesRangeHours?: number | undefined;
  /**
   * A phone: the first {@link FOLDED_SHOWN} inputs show, the rest fold behind 展开 (a form of
   * six inputs filled a phone's screen before the first row).
   */
  folded?: boolean;
}

/** Inputs a folded search bar shows. */
export const FOLDED_SHOWN = 2;

/** The search bar: one input per searchable field and the created-time range. */
export const SearchBar = memo(function SearchBar(props: SearchBarProps) {
  const { fields, withCreatedRange, options, lang, filters, onSearch, seriesRangeHours, folded } = props;
  const { t } = useTranslation('crud');
  const [form] = Form.useForm<Record<string, unknown>>();
  const [expanded, setExpanded] = useState(false);
  const inputs = Object.keys(fields).length + Number(withCreatedRange);
  const folds = Boolean(folded) && inputs > FOLDED_SHOWN;
  // A folded input stays in the form (hidden): its value still filters, and shows once unfolded.
  const hidden = (index: number) => folds && !expanded && index >= FOLDED_SHOWN;

  // Filters can change from outside the form (a reset elsewhere, the URL on first show): show
  // them. Only a change counts: a kept-alive tab re-runs its effects each time it is shown again,
  // and refilling then would throw away what was typed but not yet searched.
  const shown = useRef<{ fields: FieldMap; filters: Record<string, string> } | null>(null);
  useEffect(() => {
    if (shown.current?.fields === fields && shown.current.filters === filters) return;
    shown.current = { fields, filters };
    form.resetFields();
    form.setFieldsValue(searchFormValues(fields, filters) as Record<string, object | undefined>);
  }, [form, fields, filters]);

  if (!Object.keys(fields).length && !withCreatedRange) return null;
  return (
    <Form
      form={form}
      name="crud-search"
      layout="inline"
      className="mes-crud-search"
      onFinish={(values) => onSearch(searchFilters(fields, values))}
      data-testid="crud-search"
    >
      {Object.entries(fields).map(([name, field], index) => (
        <Form.Item key={name} name={name} label={field.label[lang]} hidden={hidden(index)}>
          <FieldInput field={field} options={options[name]} lang={lang} inSearch />
        </Form.Item>
      ))}
      {withCreatedRange && (
        <Form.Item name={CREATED_RANGE} label={t('createdRange')} hidden={hidden(Object.keys(fields).length)}>
          <DatePicker.RangePicker
            showTime
            format={DATE_TIME_FORMAT}
            allowEmpty={[true, true]}
            placeholder={
              seriesRangeHours ? seriesRangePlaceholder(seriesRangeHours, lang) : [t('rangeStart'), t('rangeEnd')]
            }
            presets={seriesRangeHours ? seriesRangePresets(seriesRangeHours, lang) : undefined}
            data-testid={seriesRangeHours ? 'crud-series-range' : undefined}
          />
        </Form.Item>
      )}
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="crud-search-submit">
          {t('search')}
        </Button>
        <Button
          icon={<DeleteOutlined />}
          className="mes-crud-gap"
          onClick={() => {
            form.resetFields();
            onSearch({});
          }}
          data-testid="crud-search-reset"
        >
          {t('reset')}
        </Button>
        {folds && (
          <Button
            type="link"
            icon={expanded ? <UpOutlined /> : <DownOutlined />}
            iconPosition="end"
            onClick={() => setExpanded((e) => !e)}
            aria-expanded={expanded}
            data-testid="crud-search-fold"
          >
            {expanded ? t('collapse') : t('expand')}
          </Button>
        )}
      </Form.Item>
    </Form>
  );
});
