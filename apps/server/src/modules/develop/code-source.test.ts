import { describe, expect, it } from 'vitest';
import { checkConfig, CodeProblem, type CodeConfig } from './code-source';

const config: CodeConfig = {
  codeName: '量具',
  codeNameEn: 'Gauge',
  tableName: 'mes_gauge',
  tablePrefix: 'mes_',
  pkName: 'id',
  packageName: 'mes',
  baseMode: 1,
  menuGroup: 'system',
  menuSort: 1,
  menuIcon: 'tool',
  apiPath: '/mes/gauge',
  webPath: '',
  columns: [],
};

/** The refusal's texts, or 'accepted'. */
function refusal(changed: Partial<CodeConfig>): { zh: string; en: string } | 'accepted' {
  try {
    checkConfig({ ...config, ...changed });
    return 'accepted';
  } catch (e) {
    if (e instanceof CodeProblem) return e.text;
    throw e;
  }
}

describe('checkConfig refusals', () => {
  it('names the configuration and the fault in both languages', () => {
    expect(refusal({ tableName: 'Bad-Table' })).toEqual({
      zh: '「量具」表名 Bad-Table 不合法',
      en: '"量具": the table name Bad-Table is invalid',
    });
    expect(refusal({ codeNameEn: ' ' })).toEqual({
      zh: '「量具」英文名不能为空',
      en: '"量具": the English name must not be empty',
    });
    expect(refusal({})).toEqual({
      zh: '「量具」没有字段,请先读取字段',
      en: '"量具": there are no fields: read the fields first',
    });
  });
});
