import { cycleCurve } from './cycle-curve';
import { deployDialog } from './deploy-dialog';
import { deployFields } from './deploy-fields';
import { device } from './device';
import { disinfection } from './disinfection';
import { load } from './load';
import { modelDesigner } from './model-designer';
import { pack } from './pack';
import { packRecall } from './pack-recall';
import { packScan } from './pack-scan';
import { packTrace } from './pack-trace';
import { reportDesigner } from './report-designer';
import { reportFiles } from './report-files';
import { verification } from './verification';
import { workflowDeployments } from './workflow-deployments';
import { workflowInstances } from './workflow-instances';
import { workflowModels } from './workflow-models';

/**
 * The namespaces of screens with texts of their own, one per screen, added when the first of
 * them loads (i18n/page-texts.ts): not with /login's first load, nor with the shell's.
 */
export const pageResources = {
  cycleCurve,
  disinfection,
  packRecall,
  verification,
  load,
  packScan,
  packTrace,
  pack,
  reportFiles,
  reportDesigner,
  deployFields,
  deployDialog,
  modelDesigner,
  workflowModels,
  workflowInstances,
  workflowDeployments,
  device,
};
