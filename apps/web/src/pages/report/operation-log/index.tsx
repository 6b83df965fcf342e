import { operationLogResource } from '@mes/contracts';
import { LogPage } from '../../monitor/log/log-page';

/** 操作日志: every submit, remove and enable, with the fields changed, read-only. */
export default function OperationLogScreen() {
  return <LogPage resource={operationLogResource} />;
}
