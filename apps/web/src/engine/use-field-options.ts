import { useQueries, type UseQueryOptions } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import {
  DictPaths,
  optionSourceOf,
  type DictEntry,
  type FieldMap,
  type LocalText,
  type OptionSource,
} from '@mes/contracts';
import { apiQuery, OPTIONS_STALE_MS, type ApiKey } from '../api/server-state';
import { DICT_ENGLISH } from './dict-text';
import { labelMap, optionsFromDict, optionsFromItems, optionsFromUrl, type Option } from './options';

export interface FieldOptions {
  /** Options by field name. */
  options: Record<string, Option[]>;
  /** value → label by field name, for table cells. */
  labels: Record<string, Map<string, string>>;
}

/** The system and business dictionaries' entry routes (spec: `dictionary?code=`). */
export const DICT_ROUTE = DictPaths.entries;
export const DICT_BIZ_ROUTE = DictPaths.bizEntries;

type OptionQuery = UseQueryOptions<unknown, Error, Option[], ApiKey>;

const fromDict = (english?: ReadonlyMap<string, string>) => (entries: unknown) =>
  optionsFromDict((entries as DictEntry[] | null) ?? [], english);

/**
 * The shared read behind a remote option source. A dictionary is one cache entry for every
 * screen (and for screens' own reads of it), so it is fetched once and reloaded when a
 * dictionary screen changes it; an endpoint source (a resource's tree) reloads when its
 * resource changes. Fixed items are not fetched.
 */
export function optionQuery(source: OptionSource, lang: keyof LocalText = 'zh'): OptionQuery | undefined {
  if ('dict' in source)
    return {
      ...apiQuery<unknown>(DICT_ROUTE, { code: source.dict }, { staleTime: OPTIONS_STALE_MS }),
      // One cache entry for both languages: only the labels picked from it differ.
      select: fromDict(lang === 'en' ? DICT_ENGLISH.get(source.dict) : undefined),
    };
  if ('dictBiz' in source)
    return {
      ...apiQuery<unknown>(DICT_BIZ_ROUTE, { code: source.dictBiz }, { staleTime: OPTIONS_STALE_MS }),
      select: fromDict(),
    };
  if ('url' in source) {
    const { label, value, where, match } = source;
    // Pickers of other resources are optional: a route the user may not read shows raw values.
    return {
      ...apiQuery<unknown>(source.url, undefined, { silent: true, staleTime: OPTIONS_STALE_MS }),
      select: (data: unknown) => optionsFromUrl(data, label, value, where, match),
    };
  }
  return undefined;
}

/** Options of every field with a source, in the interface language for fixed items. */
export function useFieldOptions(fields: FieldMap, lang: keyof LocalText): FieldOptions {
  const plan = useMemo(() => {
    const remote: { name: string; query: OptionQuery }[] = [];
    const fixed: [string, Option[]][] = [];
    for (const [name, field] of Object.entries(fields)) {
      const source = optionSourceOf(field);
      if (!source) continue;
      if ('items' in source) fixed.push([name, optionsFromItems(source.items, lang)]);
      else {
        const query = optionQuery(source, lang);
        if (query) remote.push({ name, query });
      }
    }
    return { remote, fixed };
  }, [fields, lang]);

  // The combined result keeps its identity while no source changed, so cells are not rebuilt.
  const combine = useCallback(
    (results: { data?: Option[] }[]): FieldOptions => {
      // A source still loading (or failed) has no options yet: its cells show the raw value.
      const pairs: [string, Option[]][] = [
        ...plan.fixed,
        ...plan.remote.map(({ name }, i): [string, Option[]] => [name, results[i]?.data ?? []]),
      ];
      return {
        options: Object.fromEntries(pairs),
        labels: Object.fromEntries(pairs.map(([name, opts]) => [name, labelMap(opts)])),
      };
    },
    [plan],
  );

  return useQueries({ queries: plan.remote.map((r) => r.query), combine });
}
