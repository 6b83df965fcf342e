/**
 * The problems of a refused model, one per entry, from the server's message
 * (`流程模型校验失败: rule: message (element); XML: ...`, docs/workflow.md "Linting"): the
 * heading before the first `: ` and the problems joined by `; `. A message of another shape is
 * one problem.
 */
export function modelProblems(message: string): { heading: string; problems: string[] } {
  const match = /^(流程模型校验失败|The process model is invalid): (.*)$/s.exec(message);
  if (!match) return { heading: message, problems: [] };
  const problems = (match[2] ?? '')
    .split('; ')
    .map((p) => p.trim())
    .filter(Boolean);
  return { heading: match[1] ?? message, problems };
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** A new model: one start event, drawn, in a process the author names and completes. */
export function newModelXml(key: string, name: string): string {
  key = escapeXml(key);
  name = escapeXml(name);
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_${key}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" name="${name}" isExecutable="true">
    <bpmn:startEvent id="StartEvent_1" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${key}">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
}
