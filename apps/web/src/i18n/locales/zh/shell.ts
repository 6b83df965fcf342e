import { codegen } from './codegen';
import { crud } from './crud';
import { dict } from './dict';
import { header } from './header';
import { iot } from './iot';
import { layout } from './layout';
import { ledger } from './ledger';
import { live } from './live';
import { log } from './log';
import { notice } from './notice';
import { profile } from './profile';
import { sms } from './sms';
import { storage } from './storage';
import { system } from './system';
import { tabs } from './tabs';
import { warning } from './warning';
import { wel } from './wel';
import { work } from './work';

/**
 * The namespaces of the signed-in screens, added when the shell's chunk loads
 * (i18n/shell-resources.ts). A module apart from `index.ts`, so none of them is bundled with the
 * first load: /login does not download them (its 250 KB budget, docs/sign-in.md).
 */
export const shellResources = {
  layout,
  header,
  tabs,
  profile,
  crud,
  system,
  dict,
  sms,
  storage,
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
