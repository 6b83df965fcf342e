import { addBundles } from './add-bundles';
import { shellResources as en } from './locales/en/shell';
import { shellResources as zh } from './locales/zh/shell';

/**
 * The namespaces of the signed-in screens. Imported by the modules that open them (the shell's
 * layout, the wall screen), so they arrive with those chunks and not with /login's first load.
 * A route's module is loaded before the route renders, so no screen shows a missing key.
 */
addBundles(zh, en);
