import { useEffect, useState } from 'react';
import type { FieldMap, LocalText } from '@mes/contracts';
import { labelMap, loadOptions, type Option } from './options';

export interface FieldOptions {
  /** Options by field name. */
  options: Record<string, Option[]>;
  /** value → label by field name, for table cells. */
  labels: Record<string, Map<string, string>>;
}

const EMPTY: FieldOptions = { options: {}, labels: {} };

/**
 * Options of every field with a source. `version` refetches endpoint sources after the screen
 * changed rows (a menu's own parent tree); dictionaries come from the session cache.
 */
export function useFieldOptions(fields: FieldMap, lang: keyof LocalText, version: number): FieldOptions {
  const [result, setResult] = useState<FieldOptions>(EMPTY);
  useEffect(() => {
    let live = true;
    const withSource = Object.entries(fields).filter(([, f]) => f.options);
    void Promise.all(
      withSource.map(async ([name, f]) => {
        try {
          return [name, await loadOptions(f.options!, lang)] as const;
        } catch {
          return [name, [] as Option[]] as const; // the client toasted it; the cell shows the raw value
        }
      }),
    ).then((pairs) => {
      if (!live) return;
      setResult({
        options: Object.fromEntries(pairs),
        labels: Object.fromEntries(pairs.map(([name, opts]) => [name, labelMap(opts)])),
      });
    });
    return () => {
      live = false;
    };
  }, [fields, lang, version]);
  return result;
}
