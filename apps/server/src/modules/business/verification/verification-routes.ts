import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  bilingual,
  deviceResource,
  RECALL_RESULT_MAX,
  VERIFICATION_HANDLE_RECALL_PATH,
  VERIFICATION_RECALLS_PATH,
  VERIFICATION_RELEASE_PATH,
  verificationRecordResource,
  VerificationResult,
  VerificationType,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { dataScopeCondition } from '../../../engine/resource-access';
import { registerResource, type ChangeArgs } from '../../../engine/resource-routes';
import { personOf } from '../../../engine/records/record-hooks';
import { requireAuth } from '../../../platform/auth/request-auth';
import { nextId } from '../../../platform/db/ids';
import { recordRecall, verificationRecord } from '../../../platform/db/schema';
import { ok } from '../../../platform/http/envelope';
import { requestLanguage } from '../../../platform/http/request-language';
import { badRequest, notFound } from '../../../platform/http/errors';
import { idsValue, paramsOf } from '../../../platform/http/request-params';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { recordDevice } from '../disinfection/record-device';
import { registerRecallRoutes, verificationRecallSource, visibleRecordNo } from './recall-routes';
import { recallAfterFailedIndicator, recalledLoads } from './verification-recall';
import { deviceReleases } from './verification-release';

export const VerificationMessages = {
  recallResult: { zh: '请输入处理结果', en: 'Please enter the result' },
  recallResultTooLong: {
    zh: `处理结果不能超过 ${RECALL_RESULT_MAX} 个字符`,
    en: `The result must be at most ${RECALL_RESULT_MAX} characters`,
  },
  recallHandled: { zh: '所选召回已处理', en: 'A chosen recall has already been handled' },
  handled: (n: number) => ({ zh: `已处理 ${n} 条召回`, en: `${n} recalls handled` }),
} as const;

const RECALLING_TYPES: readonly number[] = [VerificationType.biological, VerificationType.bowieDick];

/**
 * The device named on entry decides the chain, department and record type (its product's
 * category, as for the disinfection records); whether the record recalls is decided here, so the
 * flag is part of the row's hash.
 */
async function beforeChange({ tx, auth, values }: ChangeArgs): Promise<void> {
  const from = await recordDevice(tx, auth.tenantId, String(values.deviceId));
  Object.assign(values, { deviceCode: from.deviceCode, deptId: from.deptId, recordType: from.recordType });
  if (!values.recordNo) values.recordNo = `YZ${nextId()}`;
  // A failed biological indicator or Bowie-Dick test recalls (docs/packs.md "Recalls").
  values.recallTriggered =
    RECALLING_TYPES.includes(Number(values.verificationType)) && Number(values.result) === VerificationResult.fail;
}

function recallResultOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw badRequest(VerificationMessages.recallResult);
  const result = value.trim();
  if (result.length > RECALL_RESULT_MAX) throw badRequest(VerificationMessages.recallResultTooLong);
  return result;
}

/**
 * Verification records (`/api/blade-business/verification`: page, detail, submit, export and the
 * record routes), the recalls a failed biological indicator makes (`recalls`, `handle-recall`)
 * and the steam sterilisers' release (`release`), docs/records.md.
 */
export function registerVerificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = registerResource(app, ctx, {
    def: verificationRecordResource,
    table: verificationRecord,
    hooks: {
      beforeChange,
      async afterChange({ tx, auth, id, values }) {
        if (values.recallTriggered !== true) return;
        await recallAfterFailedIndicator(tx, auth, id, personOf(auth), new Date(ctx.clock.now()));
      },
    },
  });
  const code = verificationRecordResource.code;
  registerRecallRoutes(app, ctx, verificationRecallSource(ctx, service));

  app.get(`/api${VERIFICATION_RECALLS_PATH}`, { config: { apiScope: `${code}:read` } }, async (request) => {
    const auth = requireAuth(request);
    const recordNo = await visibleRecordNo(ctx, service, auth, (request.query as Record<string, unknown>).id);
    return ok(await recalledLoads(ctx.db, auth.tenantId, recordNo));
  });

  app.post(`/api${VERIFICATION_HANDLE_RECALL_PATH}`, { config: { apiScope: `${code}:recall` } }, async (request) => {
    const auth = requireAuth(request);
    const params = paramsOf(request);
    const ids = idsValue(params.ids, 'ids', { required: true, max: 500 });
    const result = recallResultOf(params.result);
    const now = new Date(ctx.clock.now());
    await ctx.db.transaction(async (tx) => {
      const scope = tenantScope(tx, auth.tenantId);
      const rows = await scope
        .select(recordRecall, { id: recordRecall.id, handled: recordRecall.handled })
        .where(inArray(recordRecall.id, ids))
        .for('update');
      if (rows.length !== new Set(ids).size) throw notFound(bilingual('rowNotFound'));
      if (rows.some((r) => r.handled)) throw badRequest(VerificationMessages.recallHandled);
      await scope
        .update(recordRecall)
        .set({
          handled: true,
          handleTime: now,
          handleUserName: personOf(auth),
          handleResult: result,
          updateUser: auth.userId,
          updateTime: now,
        })
        .where(inArray(recordRecall.id, ids));
    });
    return ok(null, VerificationMessages.handled(ids.length)[requestLanguage(request)]);
  });

  // Shown on the device screen, so read under the devices' scope and their data scope.
  app.get(
    `/api${VERIFICATION_RELEASE_PATH}`,
    { config: { apiScope: `${deviceResource.code}:read` } },
    async (request) => {
      const auth = requireAuth(request);
      const devices = await dataScopeCondition(deviceResource, auth, ctx.grants);
      return ok(await deviceReleases(ctx.db, auth.tenantId, devices, ctx.clock.now()));
    },
  );
}
