import { describe, expect, it } from 'vitest';
import { cycleModel } from '../../../test/support/flow-models';
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

const CYCLE = (cycle: string) => cycleModel('cyc', cycle);

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

  it('a cycle reports its next firing after each one until its repetitions are used up, due or not', async () => {
    const xml = CYCLE('R3/PT10M');
    const meta = await readModel(xml);
    let run = await runEngine(xml, meta, null, { kind: 'start', variables: { initiator: '1', n: 0 } });
    const fired: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const executionId = run.timers[0]?.executionId ?? '';
      expect(run.timers).toHaveLength(1);
      // The job runs at the expiry or later: the timer is then due when the state is resumed.
      const state = i === 1 ? expireAt(run.state, new Date(Date.now() - 1000)) : run.state;
      run = await runEngine(xml, meta, state, { kind: 'timer', executionId });
      fired.push(run.variables.n);
      expect(run.waiting.map((w) => w.elementId)).toEqual(['wait']);
    }
    expect(fired).toEqual([1, 2, 3]);
    expect(run.timers).toEqual([]);
  });

  it('an unbounded cycle goes on while its task waits, and stops when the task is completed', async () => {
    const xml = CYCLE('R/PT1H');
    const meta = await readModel(xml);
    let run = await runEngine(xml, meta, null, { kind: 'start', variables: { initiator: '1', n: 0 } });
    for (let i = 0; i < 4; i++)
      run = await runEngine(xml, meta, run.state, { kind: 'timer', executionId: run.timers[0]?.executionId ?? '' });
    expect(run.variables.n).toBe(4);
    const next = run.timers[0]?.executionId ?? '';
    expect(next).not.toBe('');
    run = await runEngine(xml, meta, run.state, {
      kind: 'signal',
      executionId: run.waiting[0]?.executionId ?? '',
      variables: {},
    });
    expect(run.finished).toBe(true);
    expect((await runEngine(xml, meta, run.state, { kind: 'timer', executionId: next })).found).toBe(false);
  });

  it('refuses a cycle that is not an ISO 8601 repetition, in both languages', async () => {
    await expect(readModel(CYCLE('0 0 * * *'))).rejects.toMatchObject({
      problems: [
        {
          zh: expect.stringContaining('R3/PT10M') as unknown,
          en: expect.stringContaining('ISO 8601 repeating interval') as unknown,
        },
      ],
    });
  });
});
