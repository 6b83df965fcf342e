/** Texts of the report template designer. */
export const reportDesigner = {
  title: '设计报表模板 - {name}',
  save: '保存',
  preview: '预览(真实数据)',
  close: '关闭',
  saved: '已保存',
  fields: '可绑定字段',
  columns: '表格 rows 的列',
  hint: '名为 title / subtitle 的文本和名为 rows 的表格由报表数据填充;其他元素(文字、表格)取消勾选「可编辑」后按设计原样打印,线条原样打印。',
  /** What pdfme's palette calls each element type: its plugins' keys are the names it shows. */
  typeNames: { text: '文本', table: '表格', line: '线条', image: '图片' },
  /** What a new text element holds until it is typed over (pdfme's own is English). */
  placeholder: '请输入文字',
  /**
   * pdfme's name for an element's `readOnly` (ticked: takes a value; unticked: printed as
   * designed), the name the server's refusal uses (report-layout.ts).
   */
  editable: '可编辑',
};
