/** Strings of the object-storage and attachment screens; field labels come from the definitions. */
export const storage = {
  debug: '上传调试',
  debugTitle: '上传调试:{{code}}',
  debugHint: '选择一个文件,用这个配置上传;成功后显示文件地址,上传的文件会记入附件管理。',
  enableFirst: '请先启用该配置',
  dropHint: '点击或拖动文件到这里上传',
  sizeHint: '单个文件不超过 20MB',
  uploading: '上传中…',
  uploaded: '上传成功',
  link: '文件地址',
  objectKey: '对象名称',
  upload: '上传',
  download: '下载',
  tooLarge: '上传的文件不能超过 20MB',
};
