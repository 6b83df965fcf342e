import type { ModuleDeclaration } from 'didi';

/**
 * Chinese for the words an administrator meets most in the modeler (palette, context pad, the
 * properties panel's groups and the fields the server reads). Anything not listed stays in
 * English: bpmn-js asks `translate` for every text it shows, and a missing entry falls back to
 * the English template.
 */
const ZH: Record<string, string> = {
  'Activate hand tool': '抓手工具',
  'Activate lasso tool': '套索工具',
  'Activate create/remove space tool': '空间工具',
  'Activate global connect tool': '连线工具',
  'Create start event': '开始事件',
  'Create intermediate/boundary event': '中间/边界事件',
  'Create end event': '结束事件',
  'Create gateway': '网关',
  'Create task': '任务',
  'Create expanded sub-process': '子流程',
  'Create data object reference': '数据对象',
  'Create data store reference': '数据存储',
  'Create pool/participant': '泳池',
  'Create group': '分组',
  'Append task': '追加任务',
  'Append end event': '追加结束事件',
  'Append gateway': '追加网关',
  'Append intermediate/boundary event': '追加中间事件',
  'Change element': '更改类型',
  Delete: '删除',
  'Connect to other element': '连线',
  'Add text annotation': '注释',
  General: '基本信息',
  Documentation: '文档',
  'Element documentation': '元素文档',
  Name: '名称',
  ID: '标识',
  'Process name': '流程名称',
  'Process ID': '流程标识',
  Executable: '可执行',
  'User assignment': '人员分配',
  Assignee: '办理人',
  'Candidate groups': '候选组',
  'Candidate users': '候选人',
  'Due date': '到期时间',
  'Follow up date': '跟进时间',
  Priority: '优先级',
  Forms: '表单',
  'Form key': '表单标识',
  Condition: '条件',
  'Condition expression': '条件表达式',
  Type: '类型',
  Expression: '表达式',
  Timer: '定时器',
  Duration: '持续时间',
  Date: '日期',
  Cycle: '周期',
  'Called element': '被调用流程',
};

function translate(template: string, replacements: Record<string, string> = {}): string {
  return (ZH[template] ?? template).replace(/{([^}]+)}/g, (_, key: string) => replacements[key] ?? `{${key}}`);
}

/** bpmn-js's `translate` service in Chinese, for the modeler of a Chinese interface. */
export const zhTranslateModule: ModuleDeclaration = { translate: ['value', translate] };
