// Written by `npm run db:generate` (apps/server/src/engine/registry-codegen.ts): every definition exported under packages/contracts/src/definitions. Do not edit.
import { articleResource } from './business/article';
import { carResource } from './business/car';
import { disinfectionLedgerResource } from './business/disinfection-ledger';
import { disinfectionRecordResource } from './business/disinfection-record';
import { lineResource } from './business/line';
import { oenmoResource } from './business/oenmo';
import { loadResource, packMoveResource, packResource } from './business/pack';
import { packScanScreen, packTraceScreen } from './business/pack-lookup';
import { recallPackResource, recallResource } from './business/pack-recall';
import { recordRecallResource, verificationRecordResource } from './business/verification-record';
import { deskServiceResource } from './desk/desk-service';
import { noticeResource } from './desk/notice';
import { deviceResource } from './device/device';
import { deviceCycleResource } from './device/device-cycle';
import {
  maintenanceDueResource,
  maintenancePlanCheckResource,
  maintenancePlanResource,
  maintenanceRecordCheckResource,
  maintenanceRecordPartResource,
  maintenanceRecordResource,
} from './device/maintenance';
import { plcVariableResource } from './device/plc-variable';
import {
  productAlarmRuleResource,
  productFieldResource,
  productProgramResource,
  productResource,
} from './device/product';
import {
  flowDefinitionResource,
  flowDeploymentResource,
  flowHistoryResource,
  flowInstanceResource,
  flowModelResource,
  flowTaskResource,
  leaveResource,
  workClaimScreen,
  workDoneScreen,
  workSendScreen,
  workStartScreen,
  workTodoScreen,
} from './flow/flow-tables';
import { apiLogResource } from './log/api-log';
import { errorLogResource } from './log/error-log';
import { loginLogResource } from './log/login-log';
import { operationLogResource } from './log/operation-log';
import { usualLogResource } from './log/usual-log';
import { failedJobsScreen } from './monitor/failed-jobs';
import { attachResource } from './providers/attach';
import { ossResource } from './providers/oss';
import { smsResource } from './providers/sms';
import { socialSourceResource } from './providers/social-source';
import { reportFileResource } from './report/report-file';
import { reportScheduleResource } from './report/report-schedule';
import { reportTemplateResource } from './report/report-template';
import { warningResource } from './report/warning';
import { warningEscalationResource } from './report/warning-escalation';
import { clientResource } from './system/client';
import { codeColumnResource, codeResource } from './system/code';
import { datasourceResource } from './system/datasource';
import { deptResource } from './system/dept';
import { dictBizResource, dictResource } from './system/dict';
import { menuResource } from './system/menu';
import { paramResource } from './system/param';
import { postResource } from './system/post';
import { regionResource } from './system/region';
import { roleResource } from './system/role';
import { apiScopeResource, dataScopeResource } from './system/scope';
import { tenantResource } from './system/tenant';
import { topMenuResource } from './system/top-menu';
import { userResource } from './system/user';
import { acquisitionResource, sparkplugBirthResource } from './telemetry/acquisition';
import {
  deviceLatestResource,
  mqttLogResource,
  mqttMessageResource,
  onOffResource,
  telemetryResource,
} from './telemetry/telemetry';
import { telemetryMinuteResource } from './telemetry/telemetry-minute';
import { telemetryQuarterResource } from './telemetry/telemetry-quarter';

/** Every definition, by export name; `REGISTRY` (registry.ts) is its list. */
export const DEFINITIONS = {
  articleResource,
  carResource,
  disinfectionLedgerResource,
  disinfectionRecordResource,
  lineResource,
  oenmoResource,
  loadResource,
  packMoveResource,
  packResource,
  packScanScreen,
  packTraceScreen,
  recallPackResource,
  recallResource,
  recordRecallResource,
  verificationRecordResource,
  deskServiceResource,
  noticeResource,
  deviceResource,
  deviceCycleResource,
  maintenanceDueResource,
  maintenancePlanCheckResource,
  maintenancePlanResource,
  maintenanceRecordCheckResource,
  maintenanceRecordPartResource,
  maintenanceRecordResource,
  plcVariableResource,
  productAlarmRuleResource,
  productFieldResource,
  productProgramResource,
  productResource,
  flowDefinitionResource,
  flowDeploymentResource,
  flowHistoryResource,
  flowInstanceResource,
  flowModelResource,
  flowTaskResource,
  leaveResource,
  workClaimScreen,
  workDoneScreen,
  workSendScreen,
  workStartScreen,
  workTodoScreen,
  apiLogResource,
  errorLogResource,
  loginLogResource,
  operationLogResource,
  usualLogResource,
  failedJobsScreen,
  attachResource,
  ossResource,
  smsResource,
  socialSourceResource,
  reportFileResource,
  reportScheduleResource,
  reportTemplateResource,
  warningResource,
  warningEscalationResource,
  clientResource,
  codeColumnResource,
  codeResource,
  datasourceResource,
  deptResource,
  dictBizResource,
  dictResource,
  menuResource,
  paramResource,
  postResource,
  regionResource,
  roleResource,
  apiScopeResource,
  dataScopeResource,
  tenantResource,
  topMenuResource,
  userResource,
  acquisitionResource,
  sparkplugBirthResource,
  deviceLatestResource,
  mqttLogResource,
  mqttMessageResource,
  onOffResource,
  telemetryResource,
  telemetryMinuteResource,
  telemetryQuarterResource,
} as const;
