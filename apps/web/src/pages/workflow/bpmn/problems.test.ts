import { describe, expect, it } from 'vitest';
import { modelProblems, newModelXml } from './problems';

describe('modelProblems', () => {
  it('lists each problem of a refused model', () => {
    expect(modelProblems('流程模型校验失败: 流程缺少结束事件 (p); XML: unparsable content')).toEqual({
      heading: '流程模型校验失败',
      problems: ['流程缺少结束事件 (p)', 'XML: unparsable content'],
    });
    expect(modelProblems('The process model is invalid: a; b').problems).toEqual(['a', 'b']);
  });

  it('keeps any other message whole', () => {
    expect(modelProblems('缺少必要的请求参数: xml')).toEqual({ heading: '缺少必要的请求参数: xml', problems: [] });
  });

  it('starts a new model with its key as the process id', () => {
    expect(newModelXml('purchase', '采购')).toContain('<bpmn:process id="purchase" name="采购" isExecutable="true">');
  });
});
