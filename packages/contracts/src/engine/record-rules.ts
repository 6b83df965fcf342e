import type { LocalText } from './local-text';

/**
 * The rules of a regulated record type (records.ts): a leaf of plain types, so that `define.ts`
 * names them without importing the record helpers, which build on `define.ts`.
 */

/** How long rows of one record type are kept, and the rule that says so. */
export interface RetentionRule {
  /** The type's name in messages (清洗消毒记录). */
  label: LocalText;
  /** The platform parameter holding the days (`records.retention.disinfection.days`). */
  param: string;
  /** The parameter's name on the parameter screen. */
  paramName: string;
  /** The fewest days the standard allows; a parameter below it is refused. */
  minimumDays: number;
  /** The standard, named in every refusal (WS 506 …). */
  rule: LocalText;
}

export interface RecordRules {
  /**
   * The field that, with the tenant, partitions the chain (the device's code): each partition is
   * one chain, appended under an advisory lock of its own.
   */
  chainBy: string;
  retention: {
    /** The int field holding the record type, a key of `types`. */
    typeField: string;
    /** The datetime field the retention counts from (the cycle's end). */
    timeField: string;
    types: Readonly<Record<number, RetentionRule>>;
  };
}
