import {
  disinfectionLedgerResource,
  disinfectionRecordResource,
  lineResource,
  loadResource,
  packResource,
  packScanScreen,
  packTraceScreen,
  verificationRecordResource,
} from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerLineRoutes } from './line-routes';
import { registerDisinfectionRoutes } from './disinfection/disinfection-routes';
import { registerVerificationRoutes } from './verification/verification-routes';
import { registerLedgerRoutes } from './disinfection/ledger-routes';
import { registerPackRoutes } from './packs/pack-routes';
import { registerPackLookupRoutes } from './packs/lookup-routes';

/** The business area (spec section 7 "Business and devices"). */
export const businessRouteBindings: readonly RouteBinding[] = [
  { defs: [lineResource], register: registerLineRoutes },
  { defs: [disinfectionRecordResource], register: registerDisinfectionRoutes },
  { defs: [verificationRecordResource], register: registerVerificationRoutes },
  { defs: [disinfectionLedgerResource], register: registerLedgerRoutes },
  { defs: [packResource, loadResource], register: registerPackRoutes },
  { defs: [packScanScreen, packTraceScreen], register: registerPackLookupRoutes },
];
