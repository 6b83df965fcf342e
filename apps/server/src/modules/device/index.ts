import {
  acquisitionResource,
  deviceResource,
  plcVariableResource,
  productResource,
  telemetryResource,
} from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerAcquisitionRoutes } from './acquisition-routes';
import { registerDeviceRoutes } from './device-routes';
import { registerIotRoutes } from './iot-routes';
import { registerPlcVariableRoutes } from './plc-variable-routes';
import { registerProductRoutes } from './product-routes';

export { createDeviceDirectory, PgDeviceDirectory } from './device-directory';

/** The device area (spec section 7 "Business and devices": product, device, plcvariable). */
export const deviceRouteBindings: readonly RouteBinding[] = [
  { defs: [productResource], register: registerProductRoutes },
  { defs: [deviceResource], register: registerDeviceRoutes },
  { defs: [plcVariableResource], register: registerPlcVariableRoutes },
  // The generic page/detail of the telemetry series, its model-data/model-list and dashboard/deviceCount.
  { defs: [telemetryResource], register: registerIotRoutes },
  // Acquisition data's generic list and detail, with the names of enumerated values.
  { defs: [acquisitionResource], register: registerAcquisitionRoutes },
];
