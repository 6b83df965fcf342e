/** The warning routes' answers (Chinese, as the console shows them). */
export const WarningMessages = {
  resultNotText: '请求参数 result 不正确: 应为文本',
  resultTooLong: (max: number) => `处理结果最多 ${max} 个字符`,
  handled: (count: number) => `已处理 ${count} 条告警`,
} as const;
