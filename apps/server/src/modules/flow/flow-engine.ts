import { EventEmitter } from 'node:events';
import { Engine, type BpmnEngineOptions } from 'bpmn-engine';
import { Timers } from 'bpmn-elements';
import type { LocalText } from '@mes/contracts';
import { evaluateTemplate, ExpressionError } from './expression';
import { plain } from './flow-messages';
import type { ProcessMeta, ServiceMeta } from './bpmn-model';

/**
 * One step of one process instance on bpmn-engine (docs/workflow.md, "Engine"). Nothing of the
 * engine outlives a call: the instance is rebuilt from its saved state (`recover` + `resume`),
 * moved (start, a task's signal, a timer), and its new state returned with what happened, for
 * the caller to write in the same transaction as the task change. A restart therefore loses
 * nothing, and several server processes share instances through the row lock alone.
 */

/** Variables are what JSON keeps. */
export type Variables = Record<string, unknown>;

export type EngineAction =
  | { kind: 'start'; variables: Variables }
  | { kind: 'signal'; executionId: string; variables: Variables }
  | { kind: 'timer'; executionId: string };

export interface WaitingTask {
  elementId: string;
  executionId: string;
  /** The variables when the task began waiting: its assignee and candidates are read from them. */
  variables: Variables;
}

export interface EngineStep {
  elementId: string;
  executionId: string;
  at: Date;
}

export interface ScheduledTimer {
  elementId: string;
  executionId: string;
  expireAt: Date;
}

export interface ServiceEffect {
  elementId: string;
  service: ServiceMeta;
  variables: Variables;
}

export interface EngineRun {
  state: unknown;
  finished: boolean;
  /** Every user task waiting after the run. */
  waiting: WaitingTask[];
  /** Every call activity waiting for its called instance after the run. */
  calls: WaitingTask[];
  /** Elements other than user tasks that ended during the run. */
  steps: EngineStep[];
  /** Timers that started during the run (not the ones resumed from the state). */
  timers: ScheduledTimer[];
  effects: ServiceEffect[];
  variables: Variables;
  /** For `signal` and `timer`: whether the execution was there to move. */
  found: boolean;
}

export class EngineRunError extends Error {
  constructor(readonly text: LocalText) {
    super(text.zh);
  }
}

interface ActivityApi {
  id: string;
  type: string;
  executionId: string;
  content: Record<string, unknown>;
  environment: { variables: Variables };
  owner?: { environment?: { variables: Variables } };
  signal(message?: unknown): void;
}

interface TimerRef {
  owner?: { id?: string; executionId?: string };
  callback: (...args: unknown[]) => void;
  args: unknown[];
}

interface ActivityLike {
  id: string;
  type: string;
  environment: { variables: Variables };
  behaviour: Record<string, unknown>;
}

/** The model's expressions through the server's own language, never JavaScript. */
function expressions() {
  const isExpression = (text: unknown) => typeof text === 'string' && /^\s*\$\{[\s\S]+\}\s*$/.test(text);
  const hasExpression = (text: unknown) => typeof text === 'string' && text.includes('${');
  return {
    isExpression,
    hasExpression,
    resolveExpression(text: string, context?: { environment?: { variables?: Variables } }) {
      if (typeof text !== 'string') return text;
      return evaluateTemplate(text, context?.environment?.variables ?? {});
    },
  };
}

/** An error's words: an expression's in both languages (also when the engine wrapped it), else as given. */
function textOf(error: Error): LocalText {
  const inner = (error as Error & { source?: unknown; inner?: unknown }).inner;
  if (error instanceof ExpressionError) return error.text;
  if (inner instanceof ExpressionError) return inner.text;
  return plain(error.message);
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `action` on an instance of `xml` whose state is `state` (none for a start). */
export async function runEngine(
  xml: string,
  meta: ProcessMeta,
  state: unknown,
  action: EngineAction,
  now: () => Date = () => new Date(),
): Promise<EngineRun> {
  const effects: ServiceEffect[] = [];
  const steps: EngineStep[] = [];
  const timers: ScheduledTimer[] = [];
  const errors: Error[] = [];
  let lastVariables: Variables = action.kind === 'start' ? { ...action.variables } : {};

  // Timers never fire in this process: a durable job fires them (flow.timer), on whichever
  // process picks it up, by calling the callback the engine registered.
  const parked = (() => ({ parked: true })) as unknown as typeof setTimeout;
  const timerApi = new Timers({ setTimeout: parked, clearTimeout: () => undefined });

  const services = (activity: ActivityLike) => {
    const service = meta.services[activity.id];
    if (activity.type === 'bpmn:ServiceTask' && service) {
      activity.behaviour.Service = function MesService() {
        return {
          execute(_message: unknown, callback: (err: Error | null, output?: unknown) => void) {
            try {
              const variables = activity.environment.variables;
              if (service.kind === 'set' && service.variable) {
                variables[service.variable] = evaluateTemplate(service.value ?? '', variables);
              } else {
                effects.push({ elementId: activity.id, service, variables: { ...variables } });
              }
              callback(null, {});
            } catch (error) {
              callback(error as Error);
            }
          },
        };
      };
    }
    return { activate() {}, deactivate() {} };
  };

  const engine = new Engine({
    name: meta.key,
    source: xml,
    expressions: expressions(),
    extensions: { mes: services },
    timers: timerApi,
  } as unknown as BpmnEngineOptions);

  let running = true;
  const listener = new EventEmitter();
  const remember = (api: ActivityApi) => {
    if (api.environment?.variables) lastVariables = api.environment.variables;
  };
  listener.on('activity.end', (api: ActivityApi) => {
    if (!running) return;
    remember(api);
    const element = meta.elements[api.id];
    if (
      element &&
      element.type !== 'bpmn:UserTask' &&
      api.executionId &&
      !api.executionId.includes('_', api.id.length + 1)
    )
      steps.push({ elementId: api.id, executionId: api.executionId, at: now() });
  });
  listener.on('activity.wait', remember);
  listener.on('activity.timer', (api: ActivityApi) => {
    if (!running || api.content.isResumed) return;
    const expireAt = new Date(String(api.content.expireAt));
    timers.push({ elementId: api.id, executionId: String(api.content.executionId ?? api.executionId), expireAt });
  });
  // A timer already due when the instance is resumed fires during the resume itself.
  const firedTimers = new Set<string>();
  listener.on('activity.timeout', (api: ActivityApi) => {
    firedTimers.add(String(api.content.executionId ?? api.executionId));
  });
  const onError = (error: Error) => errors.push(error);
  listener.on('activity.error', (api: ActivityApi & { content: { error?: Error } }) => {
    if (api.content.error) errors.push(api.content.error);
  });
  engine.on('error', onError);

  let found = action.kind === 'start';
  try {
    let execution;
    if (action.kind === 'start') {
      execution = await engine.execute({ listener, variables: { ...action.variables } });
    } else {
      engine.recover(state as never);
      execution = await engine.resume({ listener });
    }
    await settle();
    if (action.kind === 'signal') {
      const task = (execution.getPostponed() as unknown as ActivityApi[]).find(
        (a) => a.executionId === action.executionId,
      );
      if (task) {
        found = true;
        Object.assign(task.environment.variables, action.variables);
        task.signal({ ...action.variables });
      }
    } else if (action.kind === 'timer') {
      const ref = (timerApi.executing as unknown as TimerRef[]).find(
        (r) => r.owner?.executionId === action.executionId,
      );
      if (ref) {
        found = true;
        ref.callback(...ref.args);
      } else {
        found = firedTimers.has(action.executionId);
      }
    }
    await settle();
    await settle();
    if (errors.length) {
      const texts = errors.map(textOf);
      throw new EngineRunError({ zh: texts.map((t) => t.zh).join('; '), en: texts.map((t) => t.en).join('; ') });
    }

    const postponed = execution.getPostponed() as unknown as ActivityApi[];
    const waiting = postponed
      .filter((a) => a.type === 'bpmn:UserTask')
      .map((a) => ({ elementId: a.id, executionId: a.executionId, variables: { ...a.environment.variables } }));
    const calls = postponed
      .filter((a) => a.type === 'bpmn:CallActivity')
      .map((a) => ({ elementId: a.id, executionId: a.executionId, variables: { ...a.environment.variables } }));
    for (const a of postponed) if (a.environment?.variables) lastVariables = a.environment.variables;
    const finished =
      engine.state === 'idle' || !postponed.some((a) => meta.elements[a.id] && a.type !== 'bpmn:SequenceFlow');
    const saved = await engine.getState();
    running = false;
    return {
      state: JSON.parse(JSON.stringify(saved)) as unknown,
      finished,
      waiting,
      calls,
      steps,
      timers,
      effects,
      variables: { ...lastVariables },
      found,
    };
  } catch (error) {
    if (error instanceof EngineRunError) throw error;
    throw new EngineRunError(textOf(error as Error));
  } finally {
    running = false;
    // An engine that ran to the end is idle already, and its stop() would wait forever.
    if (engine.state === 'running') await engine.stop();
  }
}
