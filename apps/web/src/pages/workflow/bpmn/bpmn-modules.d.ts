// bpmn-js-properties-panel 5 and the Camunda behaviours ship no type declarations; the screens use
// only their module objects, handed to bpmn-js as `additionalModules`.
declare module 'bpmn-js-properties-panel' {
  import type { ModuleDeclaration } from 'didi';
  export const BpmnPropertiesPanelModule: ModuleDeclaration;
  export const BpmnPropertiesProviderModule: ModuleDeclaration;
  export const CamundaPlatformPropertiesProviderModule: ModuleDeclaration;
}
declare module 'camunda-bpmn-js-behaviors/lib/camunda-platform' {
  import type { ModuleDeclaration } from 'didi';
  const behaviors: ModuleDeclaration;
  export default behaviors;
}
