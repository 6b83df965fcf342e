import type { FastifyInstance } from 'fastify';
import { disinfectionRecordResource, RecordSource } from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { registerResource, type ChangeArgs, type Row } from '../../../crud/resource-routes';
import { disinfectionRecord } from '../../../platform/db/schema';
import { newRecordNo, recordDevice } from './record-device';
import { startRecordsFromCycles } from './records-from-cycles';
import { recallMarks } from '../verification/verification-recall';
import type { AuthContext } from '../../../platform/auth/request-auth';

/**
 * A manual entry (or a correction) names the device; the rest of what identifies the record —
 * its chain (the device's code), department, product and record type — is the device's, never
 * the form's. A correction keeps its record number and source.
 */
async function beforeChange({ tx, auth, values }: ChangeArgs): Promise<void> {
  const from = await recordDevice(tx, auth.tenantId, String(values.deviceId));
  Object.assign(values, {
    deviceCode: from.deviceCode,
    deptId: from.deptId,
    productId: from.productId,
    recordType: from.recordType,
  });
  if (!values.recordNo) values.recordNo = newRecordNo();
  if (values.source === undefined) values.source = RecordSource.manual;
}

/**
 * `recalled` on every row whose record a failed biological indicator recalled (any version: the
 * record number is shared), `recallHandled` when every such recall was dealt with. Read from the
 * recalls, since the record itself is chained and never changes.
 */
const recallDecoration =
  (ctx: AppContext) =>
  async (rows: Row[], auth: AuthContext): Promise<Row[]> => {
    const marks = await recallMarks(ctx.db, auth.tenantId, [...new Set(rows.map((r) => String(r.recordNo ?? '')))]);
    return rows.map((row) => {
      const mark = marks.get(String(row.recordNo ?? ''));
      return { ...row, recalled: mark !== undefined, recallHandled: mark?.handled ?? false };
    });
  };

/**
 * Disinfection records (spec: `/api/blade-business/disinfection` page, detail; and the record
 * routes the engine adds: review, correct, versions, verify), made from finished cycles too.
 */
export function registerDisinfectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: disinfectionRecordResource,
    table: disinfectionRecord,
    hooks: { beforeChange, decorate: recallDecoration(ctx) },
  });
  startRecordsFromCycles(ctx);
}
