import { describe, expect, it } from 'vitest';
import { readModel } from './bpmn-model';
import { runEngine } from './flow-engine';

const TIMED = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="d" targetNamespace="x">
  <process id="timed" isExecutable="true">
    <startEvent id="start"><outgoing>f1</outgoing></startEvent>
    <sequenceFlow id="f1" sourceRef="start" targetRef="wait" />
    <userTask id="wait" name="wait" flowable:assignee="\${initiator}"><incoming>f1</incoming><outgoing>f2</outgoing></userTask>
    <boundaryEvent id="late" attachedToRef="wait"><outgoing>f3</outgoing><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="f2" sourceRef="wait" targetRef="end" />
    <sequenceFlow id="f3" sourceRef="late" targetRef="escalated" />
    <userTask id="escalated" name="escalated" flowable:candidateGroups="hr"><incoming>f3</incoming><outgoing>f4</outgoing></userTask>
    <sequenceFlow id="f4" sourceRef="escalated" targetRef="end" />
    <endEvent id="end"><incoming>f2</incoming><incoming>f4</incoming></endEvent>
  </process>
</definitions>`;

/** Moves the timer's expiry in a saved state to `at` (as if the state had waited that long). */
function expireAt(state: unknown, at: Date): unknown {
  return JSON.parse(JSON.stringify(state).replace(/"expireAt":"[^"]+"/g, `"expireAt":"${at.toISOString()}"`));
}

describe('one move of an instance on bpmn-engine', () => {
  it('reports a new timer once, never again on a resume, and fires it when its job asks', async () => {
    const meta = await readModel(TIMED);
    const started = await runEngine(TIMED, meta, null, { kind: 'start', variables: { initiator: '1' } });
    expect(started.timers.map((t) => t.elementId)).toEqual(['late']);
    expect(started.waiting.map((w) => w.elementId)).toEqual(['wait']);
    const executionId = started.timers[0]?.executionId ?? '';

    const fired = await runEngine(TIMED, meta, started.state, { kind: 'timer', executionId });
    expect(fired.found).toBe(true);
    expect(fired.timers).toEqual([]);
    expect(fired.waiting.map((w) => w.elementId)).toEqual(['escalated']);
  });

  it('counts a timer that fell due while stored as fired by the resume itself', async () => {
    const meta = await readModel(TIMED);
    const started = await runEngine(TIMED, meta, null, { kind: 'start', variables: { initiator: '1' } });
    const executionId = started.timers[0]?.executionId ?? '';
    const due = expireAt(started.state, new Date(Date.now() - 1000));
    const fired = await runEngine(TIMED, meta, due, { kind: 'timer', executionId });
    expect(fired.found).toBe(true);
    expect(fired.steps.map((s) => s.elementId)).toEqual(['late']);
    expect(fired.waiting.map((w) => w.elementId)).toEqual(['escalated']);
  });

  it('finds nothing to fire once the task was completed first', async () => {
    const meta = await readModel(TIMED);
    const started = await runEngine(TIMED, meta, null, { kind: 'start', variables: { initiator: '1' } });
    const executionId = started.timers[0]?.executionId ?? '';
    const done = await runEngine(TIMED, meta, started.state, {
      kind: 'signal',
      executionId: started.waiting[0]?.executionId ?? '',
      variables: {},
    });
    expect(done.finished).toBe(true);
    const late = await runEngine(TIMED, meta, done.state, { kind: 'timer', executionId });
    expect(late.found).toBe(false);
  });
});
