import { apiLogResource } from '@mes/contracts';
import { LogPage } from '../log-page';

/** 接口日志: every API request, read-only. */
export default function ApiLogScreen() {
  return <LogPage resource={apiLogResource} />;
}
