// The two bpmn-io packages ship no types; only what the server calls is declared.
declare module 'bpmn-moddle' {
  export default class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string): Promise<{ rootElement: unknown; warnings: unknown[] }>;
  }
}
declare module 'bpmnlint' {
  export class Linter {
    constructor(options: { config: unknown; resolver: unknown });
    lint(root: unknown): Promise<Record<string, unknown[]>>;
  }
}
declare module 'bpmnlint/lib/resolver/node-resolver.js' {
  export default class NodeResolver {
    constructor(options?: Record<string, unknown>);
  }
}
