import { errorLogResource } from '@mes/contracts';
import { LogPage } from '../log-page';

/** 错误日志: the server's unhandled errors and the console's uploaded ones, read-only. */
export default function ErrorLogScreen() {
  return <LogPage resource={errorLogResource} />;
}
