/**
 * A process whose task `wait` (the starter's) has a non-interrupting reminder `remind` on the
 * timer cycle given; each reminder runs the `set` task `count`, which adds one to `n`. Read by
 * the engine's unit test and the workflow's server test of cycles.
 */
export const cycleModel = (key: string, cycle: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:mes="http://mes.example/bpmn" id="d_${key}" targetNamespace="mes">
  <process id="${key}" name="${key}" isExecutable="true">
    <startEvent id="start"><outgoing>f1</outgoing></startEvent>
    <sequenceFlow id="f1" sourceRef="start" targetRef="wait" />
    <userTask id="wait" name="等待" flowable:assignee="\${initiator}"><incoming>f1</incoming><outgoing>f2</outgoing></userTask>
    <boundaryEvent id="remind" attachedToRef="wait" cancelActivity="false"><outgoing>f3</outgoing><timerEventDefinition><timeCycle>${cycle}</timeCycle></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="f2" sourceRef="wait" targetRef="end" />
    <sequenceFlow id="f3" sourceRef="remind" targetRef="count" />
    <serviceTask id="count" mes:service="set" mes:variable="n" mes:value="\${n + 1}"><incoming>f3</incoming><outgoing>f4</outgoing></serviceTask>
    <sequenceFlow id="f4" sourceRef="count" targetRef="done" />
    <endEvent id="done"><incoming>f4</incoming></endEvent>
    <endEvent id="end"><incoming>f2</incoming></endEvent>
  </process>
</definitions>`;
