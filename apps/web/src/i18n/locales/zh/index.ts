import { codegen } from './codegen';
import { common } from './common';
import { crud } from './crud';
import { dict } from './dict';
import { errorLog } from './errorLog';
import { header } from './header';
import { iot } from './iot';
import { layout } from './layout';
import { lock } from './lock';
import { log } from './log';
import { login } from './login';
import { profile } from './profile';
import { register } from './register';
import { sms } from './sms';
import { social } from './social';
import { storage } from './storage';
import { system } from './system';
import { tabs } from './tabs';
import { warning } from './warning';
import { ledger } from './ledger';
import { notice } from './notice';
import { wel } from './wel';
import { live } from './live';
import { work } from './work';

/** One namespace per area; the `en` file of each area is typed by its `zh` file, so both stay complete. */
export const resources = {
  common,
  login,
  layout,
  header,
  tabs,
  lock,
  errorLog,
  profile,
  register,
  crud,
  system,
  dict,
  sms,
  storage,
  social,
  log,
  iot,
  warning,
  ledger,
  notice,
  wel,
  live,
  codegen,
  work,
};
