import type { FastifyInstance } from 'fastify';
import { acquisitionResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { acquisition } from '../../platform/db/schema';
import { modelLabelsOf } from './model-labels';

/**
 * Acquisition data (`/report/acqdata`): the engine's list and detail, each row with
 * `valueLabels` — the names of its enumerated values by field key ({zh, en}) — beside
 * `dataValues`, which stays as ingestion stored it.
 */
export function registerAcquisitionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const labels = modelLabelsOf(ctx);
  registerResource(app, ctx, {
    def: acquisitionResource,
    table: acquisition,
    hooks: {
      decorate: (rows, auth) =>
        labels.labelValueMaps(auth.tenantId, rows, {
          device: 'deviceCode',
          values: 'dataValues',
          label: 'valueLabels',
        }),
    },
  });
}
