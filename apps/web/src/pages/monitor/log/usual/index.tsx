import { usualLogResource } from '@mes/contracts';
import { LogPage } from '../log-page';

/** 通用日志: business events (tenant created, password reset, role granted, ...), read-only. */
export default function UsualLogScreen() {
  return <LogPage resource={usualLogResource} />;
}
