import { formatDateTime, retentionRuleOf, type RecordRules, type RetentionRule } from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import { readIntParam } from '../../platform/db/params';
import type { RecordRow } from './record-hash';

const DAY_MS = 86_400_000;

/** The days a type is kept: its parameter, never below the standard's minimum. */
export async function retentionDays(db: Db, rule: RetentionRule): Promise<number> {
  return Math.max(rule.minimumDays, await readIntParam(db, rule.param, rule.minimumDays));
}

/**
 * Why a person may not remove this record: before its retention has passed the message names the
 * rule and the day it ends; after it, only the retention job removes records (and logs them).
 */
export async function removalRefusal(db: Db, rules: RecordRules, row: RecordRow, now: Date): Promise<string> {
  const name = String(row.recordNo || row.id);
  const rule = retentionRuleOf(rules, row[rules.retention.typeField]);
  if (!rule) return `记录 ${name} 的类型没有保存期规则,不能删除`;
  const days = await retentionDays(db, rule);
  const time = row[rules.retention.timeField];
  const from = time instanceof Date ? time : new Date(String(time));
  const until = new Date(from.getTime() + days * DAY_MS);
  if (until > now)
    return `${rule.label.zh}须保存 ${days} 天(${rule.rule.zh};参数 ${rule.param}),记录 ${name} 在 ${formatDateTime(until)} 前不能删除`;
  return `记录 ${name} 已过保存期(${days} 天),过期记录只由保存期任务删除,不能手工删除`;
}

/** The instant before which rows of this rule are past their retention. */
export async function retentionCutoff(db: Db, rule: RetentionRule, now: Date): Promise<{ days: number; cutoff: Date }> {
  const days = await retentionDays(db, rule);
  return { days, cutoff: new Date(now.getTime() - days * DAY_MS) };
}
