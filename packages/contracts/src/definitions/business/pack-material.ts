import { addDays, parseDay } from '../../engine/calendar-day';
import type { SystemDictionaryDef } from '../../engine/menu-placement';

/**
 * Shelf lives of sterile packs by packaging material (WS 310.2, DOMAIN.md): the rule an
 * article's expiry date is computed by. They live here, in code, rather than in the dictionary
 * an administrator may edit, so that relabelling an entry can never change a computed expiry;
 * the dictionary `pack_material` is generated from this list, so both always agree.
 * WS 310.2 states the months as days (一个月 = 30 d, 六个月 = 180 d), and so do we.
 */
export const PACK_MATERIALS = [
  // Textile keeps 14 days only where temperature and humidity are controlled (WS 310.2 4.4.8.1).
  { key: 1, name: '纺织品', en: 'Textile', days: 14, daysWithoutClimateControl: 7 },
  { key: 2, name: '医用纸袋', en: 'Medical paper bag', days: 30 },
  { key: 3, name: '医用无纺布', en: 'Non-woven wrap', days: 180 },
  { key: 4, name: '纸塑袋', en: 'Paper-plastic pouch', days: 180 },
  { key: 5, name: '硬质容器', en: 'Rigid container', days: 180 },
] as const satisfies readonly {
  key: number;
  name: string;
  en: string;
  days: number;
  daysWithoutClimateControl?: number;
}[];

export const packMaterialDictionary: SystemDictionaryDef = {
  code: 'pack_material',
  name: '包装材料',
  entries: PACK_MATERIALS.map((m) => [String(m.key), m.name, m.en] as const),
};

/** Days a sterile pack of this material keeps; undefined for a material that is not listed. */
export function validityDaysOf(material: unknown, climateControlled: unknown): number | undefined {
  const found = PACK_MATERIALS.find((m) => String(m.key) === String(material));
  if (!found) return undefined;
  const uncontrolled = climateControlled === false || climateControlled === 'false';
  return uncontrolled && 'daysWithoutClimateControl' in found ? found.daysWithoutClimateControl : found.days;
}

/** The day a pack sterilised on `packDate` expires (that day plus its validity days); null while either is unknown. */
export function expiryDateOf(packDate: unknown, material: unknown, climateControlled: unknown): string | null {
  const days = validityDaysOf(material, climateControlled);
  const day = typeof packDate === 'string' ? parseDay(packDate) : undefined;
  if (days === undefined || !day) return null;
  return addDays(day, days) ?? null;
}
