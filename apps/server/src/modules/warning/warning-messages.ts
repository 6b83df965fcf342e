/** The warning routes' answers (Chinese, as the console shows them). */
export const WarningMessages = {
  resultNotText: { zh: '请求参数 result 不正确: 应为文本', en: 'The parameter result is invalid: must be text' },
  resultTooLong: (max: number) => ({
    zh: `处理结果最多 ${max} 个字符`,
    en: `The result must be at most ${max} characters`,
  }),
  handled: (count: number) => ({ zh: `已处理 ${count} 条告警`, en: `${count} warnings handled` }),
} as const;
