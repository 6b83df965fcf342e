import {
  flowDefinitionResource,
  flowDeploymentResource,
  flowHistoryResource,
  flowInstanceResource,
  flowModelResource,
  flowTaskResource,
  leaveResource,
} from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerFlowRoutes } from './flow-routes';

/** Workflow (docs/workflow.md): every workflow table is the flow module's. */
export const flowRouteBindings: readonly RouteBinding[] = [
  {
    defs: [
      flowModelResource,
      flowDefinitionResource,
      flowDeploymentResource,
      flowInstanceResource,
      flowTaskResource,
      flowHistoryResource,
      leaveResource,
    ],
    register: registerFlowRoutes,
  },
];
