import type { FastifyInstance } from 'fastify';
import {
  apiScopeCodes,
  bilingual,
  type BilingualText,
  IOT_MODEL_DATA_PATH,
  IOT_MODEL_LIST_PATH,
  type ModelListReply,
  telemetryResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { openApiSchemas } from '../../engine/resource-openapi';
import { telemetry } from '../../platform/db/schema';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { textParam } from '../../platform/http/request-params';
import { registerDeviceCountRoute } from './dashboard-device-count';
import { IotMessages } from './iot-messages';
import { programBands } from './iot-bands';
import { modelData, telemetryVisible, visibleDevice, visibleDeviceField, visibleTelemetry } from './iot-model';
import { modelListWindow } from './iot-range';
import { modelLabelsOf } from './model-labels';
import { seriesPoints } from './iot-series';
import { pointsEstimateScale } from './points-estimate';

const DEVICE_CODE = /^[A-Za-z0-9_-]{1,64}$/;
const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A required text parameter matching `pattern`, or a 400 saying what is wrong. */
function required(value: string | undefined, name: string, pattern: RegExp, bad: BilingualText): string {
  if (value === undefined || value.trim() === '') throw badRequest(bilingual('missingParam', name));
  if (!pattern.test(value)) throw badRequest(bad);
  return value;
}

/**
 * `/api/blade-business/iot`: the engine's `page` and `detail` of the telemetry series, plus
 * `model-data` (the newest value of every model field of a device) and `model-list` (one field
 * over a range, downsampled on the server when long), both read with `iot:read` and within the
 * caller's tenant and data scope of devices. Also the welcome page's `dashboard/deviceCount`.
 */
export function registerIotRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The engine's page and detail, kept to the devices of the caller's data scope: the page by
  // a condition, the detail by a check of the row's device (the engine's detail has no hook).
  const labels = modelLabelsOf(ctx);
  const service = registerResource(app, ctx, {
    def: telemetryResource,
    table: telemetry,
    hooks: {
      listParams: { names: [], where: (_query, auth) => visibleTelemetry(ctx, auth), perCaller: true },
      estimateScale: pointsEstimateScale(ctx),
      // `valueLabel`: the name of an enumerated value ({zh, en}), beside the untouched value.
      decorate: (rows, auth) =>
        labels.labelRows(auth.tenantId, rows, {
          device: 'deviceCode',
          field: 'field',
          value: ['numValue', 'textValue'],
          label: 'valueLabel',
        }),
    },
    omit: ['detail'],
  });
  const read = { apiScope: apiScopeCodes(telemetryResource.code).read };
  const docs = openApiSchemas(telemetryResource, service.fields);

  app.get(`/api${telemetryResource.api}/detail`, { config: read, schema: docs.detail }, async (request) => {
    const auth = requireAuth(request);
    const row = await service.detail((request.query as Record<string, unknown>).id, auth);
    if (!(await telemetryVisible(ctx, auth, String(row.deviceCode)))) throw notFound(bilingual('rowNotFound'));
    return ok(row);
  });

  app.get(`/api${IOT_MODEL_DATA_PATH}`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const code = required(textParam(request, 'deviceCode'), 'deviceCode', DEVICE_CODE, IotMessages.badDeviceCode);
    return ok(await modelData(ctx, auth, await visibleDevice(ctx, auth, code)));
  });

  app.get(`/api${IOT_MODEL_LIST_PATH}`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const code = required(textParam(request, 'deviceCode'), 'deviceCode', DEVICE_CODE, IotMessages.badDeviceCode);
    const field = required(textParam(request, 'field'), 'field', FIELD_KEY, IotMessages.badField);
    // The window is checked before any query: a bad range costs nothing.
    const window = modelListWindow(request.query as Record<string, unknown>, ctx.clock.now());
    const model = await visibleDeviceField(ctx, auth, code, field);
    if (!model) throw badRequest(IotMessages.fieldNotInModel(field, code));
    // A text field has no line to draw; an enum or bool is drawn by its stored numbers.
    if (model.dataType === 'string') throw badRequest(IotMessages.textField(field));
    const { bucketSeconds, points } = await seriesPoints(
      ctx,
      { tenantId: auth.tenantId, deviceCode: code, field },
      window,
    );
    const bands = await programBands(
      ctx,
      { tenantId: auth.tenantId, deviceCode: code, productId: model.productId, field },
      window,
    );
    const reply: ModelListReply = {
      deviceCode: code,
      field,
      unit: model.unit,
      from: window.from,
      to: window.to,
      bucketSeconds,
      points,
      bands,
    };
    return ok(reply);
  });

  registerDeviceCountRoute(app, ctx);
}
