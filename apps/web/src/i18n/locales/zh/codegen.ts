/** Strings of the code generator screen; field labels come from the definition. */
export const codegen = {
  readColumns: '读取字段',
  columnsRead: '已读取 {{count}} 个字段',
  preview: '预览',
  generate: '生成所选',
  download: '下载',
  copy: '复制',
  copied: '已复制为新配置',
  previewTitle: '代码预览',
  files: '文件',
  copySource: '复制代码',
  sourceCopied: '已复制到剪贴板',
  selectFirst: '请先选择配置',
  close: '关闭',
  loading: '加载中…',
};
