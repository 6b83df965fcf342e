import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { anyOf } from '../../../platform/db/any-of';
import {
  formatDateTime,
  isPackState,
  LoadStatus,
  PACK_BATCH_MAX,
  PACK_STATE_LABELS,
  packMoveAllowed,
  packMoveRefused,
  PackState,
  RELEASE_ONLY_STATES,
  type PackMoveRow,
} from '@mes/contracts';
import type { AuthContext } from '../../../platform/auth/request-auth';
import type { Tx } from '../../../platform/audit/operation-audit';
import { article, car, dept, line, load, pack, packMove } from '../../../platform/db/schema';
import { nextId } from '../../../platform/db/ids';
import { badRequest, notFound } from '../../../platform/http/errors';
import { idsValue, idValue } from '../../../platform/http/request-params';
import { rowsOfSameTenant, tenantRows, tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';
import { zoneDay } from '../../welcome/welcome-days';

export const PackMessages = {
  state: { zh: '请选择目标状态', en: 'Please choose the state to move to' },
  releaseOnly: {
    zh: `「${PACK_STATE_LABELS[PackState.sterile].zh}」只能由批次放行产生`,
    en: `Packs become "${PACK_STATE_LABELS[PackState.sterile].en}" only by releasing their load`,
  },
  needLoad: { zh: '装载灭菌须选择灭菌批次', en: 'Choose the load the packs go into' },
  loadReleased: { zh: '该批次已放行,不能再装入器械包', en: 'The load is released; no packs can go into it' },
  needPatient: { zh: '使用须填写病历号', en: 'Enter the patient case the pack was used on' },
  expired: (code: string, day: string) => ({
    zh: `器械包 ${code} 已于 ${day} 过期,不能使用`,
    en: `Pack ${code} expired on ${day} and cannot be used`,
  }),
  tooLong: (name: string, max: number) => ({
    zh: `${name}不能超过 ${max} 个字符`,
    en: `${name} must be at most ${max} characters`,
  }),
  moved: (n: number) => ({ zh: `已流转 ${n} 个器械包`, en: `${n} packs moved` }),
} as const;

/** Where and with whom a move happened, as the history stores it. */
export interface MovePlace {
  deptId: string | null;
  lineId: string | null;
  carId: string | null;
  loadId: string | null;
  patientCase: string;
  chairNo: string;
  clinician: string;
  remark: string;
}

export const NO_PLACE: MovePlace = {
  deptId: null,
  lineId: null,
  carId: null,
  loadId: null,
  patientCase: '',
  chairNo: '',
  clinician: '',
  remark: '',
};

function textOf(value: unknown, name: string, max: number): string {
  if (value === undefined || value === null) return '';
  const text = String(value).trim();
  if (text.length > max) throw badRequest(PackMessages.tooLong(name, max));
  return text;
}

const optionalId = (value: unknown, name: string): string | null =>
  value === undefined || value === null || value === '' ? null : idValue(value, name);

/** A move request's parameters, checked (ids, state, place); the rows they name are checked in `movePacks`. */
export function moveInputOf(params: Record<string, unknown>): { ids: string[]; state: PackState; place: MovePlace } {
  const ids = idsValue(params.ids, 'ids', { required: true, max: PACK_BATCH_MAX });
  const state = Number(params.state);
  if (!isPackState(state)) throw badRequest(PackMessages.state);
  return {
    ids,
    state,
    place: {
      deptId: optionalId(params.deptId, 'deptId'),
      lineId: optionalId(params.lineId, 'lineId'),
      carId: optionalId(params.carId, 'carId'),
      loadId: optionalId(params.loadId, 'loadId'),
      patientCase: textOf(params.patientCase, '病历号', 64),
      chairNo: textOf(params.chairNo, '牙椅号', 32),
      clinician: textOf(params.clinician, '医生', 64),
      remark: textOf(params.remark, '备注', 255),
    },
  };
}

/** The place's department, line, car and load must be live rows of the caller's tenant. */
async function checkPlace(tx: Queryable, tenantId: string, place: MovePlace): Promise<void> {
  const scope = tenantScope(tx, tenantId);
  const exists = async (found: Promise<unknown[]>) => {
    if (!(await found).length)
      throw notFound({ zh: '所选机构、线路、车辆或批次不存在', en: 'A chosen row does not exist' });
  };
  if (place.deptId) await exists(scope.select(dept, { id: dept.id }).where(eq(dept.id, place.deptId)));
  if (place.lineId) await exists(scope.select(line, { id: line.id }).where(eq(line.id, place.lineId)));
  if (place.carId) await exists(scope.select(car, { id: car.id }).where(eq(car.id, place.carId)));
  if (place.loadId) await exists(scope.select(load, { id: load.id }).where(eq(load.id, place.loadId)));
}

interface PackRow {
  id: string;
  code: string;
  state: number;
  expiryDate: string | null;
}

/**
 * Moves packs to `to` through the one table (`PACK_MOVES`), each move a history row, in the
 * caller's transaction: refused whole (nothing moved) when any pack may not make the move. A pack
 * goes into a load only while the load is open; one past its expiry cannot be used.
 * `options.release` is the load's release, the one way to `sterile`.
 */
export async function movePacks(
  tx: Tx,
  // Only whose rows and who wrote them: the expiry sweep moves packs as no signed-in user.
  auth: Pick<AuthContext, 'tenantId' | 'userId'>,
  person: string,
  move: { ids: readonly string[]; state: PackState; place: MovePlace },
  now: Date,
  options: { release?: { sterileDate: string; expiryOf(articleId: string): string | null } } = {},
): Promise<number> {
  const { state: to, place } = move;
  if (RELEASE_ONLY_STATES.includes(to) && !options.release) throw badRequest(PackMessages.releaseOnly);
  if (to === PackState.sterilising && !place.loadId) throw badRequest(PackMessages.needLoad);
  if (to === PackState.inUse && !place.patientCase) throw badRequest(PackMessages.needPatient);
  await checkPlace(tx, auth.tenantId, place);
  const scope = tenantScope(tx, auth.tenantId);
  if (to === PackState.sterilising && place.loadId) {
    const [target] = await scope.select(load, { state: load.state }).where(eq(load.id, place.loadId)).for('update');
    if (target?.state === LoadStatus.released) throw badRequest(PackMessages.loadReleased);
  }
  const rows = await scope
    .select(pack, {
      id: pack.id,
      code: pack.code,
      state: pack.state,
      articleId: pack.articleId,
      expiryDate: pack.expiryDate,
    })
    .where(inArray(pack.id, [...move.ids]))
    .orderBy(asc(pack.code))
    .for('update');
  if (rows.length !== new Set(move.ids).size) throw notFound({ zh: '器械包不存在', en: 'A pack does not exist' });
  const today = zoneDay(now.getTime());
  for (const row of rows as (PackRow & { articleId: string | null })[]) {
    const from = isPackState(row.state) ? row.state : PackState.awaitingPickup;
    if (!packMoveAllowed(from, to)) throw badRequest(packMoveRefused(row.code, from, to));
    if (to === PackState.inUse && row.expiryDate && row.expiryDate < today)
      throw badRequest(PackMessages.expired(row.code, row.expiryDate));
  }
  for (const row of rows) {
    const set: Partial<typeof pack.$inferInsert> = {
      state: to,
      lastMoveTime: now,
      updateUser: auth.userId,
      updateTime: now,
    };
    // Where the pack now is: a move that names a place moves the pack there.
    if (place.deptId) set.deptId = place.deptId;
    if (place.lineId) set.lineId = place.lineId;
    if (place.carId) set.carId = place.carId;
    if (to === PackState.sterilising) set.loadId = place.loadId;
    if (to === PackState.inUse) set.patientCase = place.patientCase;
    if (to === PackState.awaitingPickup) set.patientCase = '';
    if (options.release) {
      set.sterileDate = options.release.sterileDate;
      set.expiryDate = row.articleId ? options.release.expiryOf(row.articleId) : null;
    }
    await scope.update(pack).set(set).where(eq(pack.id, row.id));
  }
  await scope.insert(packMove).values(
    ...rows.map((row) => ({
      id: nextId(),
      packId: row.id,
      packCode: row.code,
      fromState: row.state,
      toState: to,
      moveTime: now,
      userName: person,
      ...place,
      // The load a pack went into or came out of, also on the moves that do not name it.
      loadId: place.loadId,
      createUser: auth.userId,
      updateUser: auth.userId,
    })),
  );
  return rows.length;
}

/** The first history row of a pack made by `submit`: it enters the loop awaiting pickup. */
export async function recordCreation(
  tx: Tx,
  auth: AuthContext,
  person: string,
  created: { id: string; code: string },
  now: Date,
): Promise<void> {
  await tenantScope(tx, auth.tenantId)
    .insert(packMove)
    .values({
      id: nextId(),
      packId: created.id,
      packCode: created.code,
      fromState: null,
      toState: PackState.awaitingPickup,
      moveTime: now,
      userName: person,
      ...NO_PLACE,
      remark: '建包',
      createUser: auth.userId,
      updateUser: auth.userId,
    });
}

/** A pack's moves, oldest first, with the names of the places. */
export async function packHistory(db: Queryable, tenantId: string, packId: string): Promise<PackMoveRow[]> {
  const scope = tenantScope(db, tenantId);
  const moves = await scope
    .select(packMove)
    .where(eq(packMove.packId, packId))
    .orderBy(asc(packMove.moveTime), asc(packMove.id));
  const idsOf = (key: 'deptId' | 'lineId' | 'carId' | 'loadId') => [
    ...new Set(moves.map((m) => m[key]).filter((v): v is string => !!v)),
  ];
  const named = async (ids: string[], read: (ids: string[]) => Promise<{ id: string; name: string }[]>) =>
    new Map((ids.length ? await read(ids) : []).map((r) => [String(r.id), r.name]));
  const [depts, lines, cars, loads] = await Promise.all([
    named(idsOf('deptId'), (ids) =>
      scope.select(dept, { id: dept.id, name: dept.deptName }).where(inArray(dept.id, ids)),
    ),
    named(idsOf('lineId'), (ids) => scope.select(line, { id: line.id, name: line.name }).where(inArray(line.id, ids))),
    named(idsOf('carId'), (ids) => scope.select(car, { id: car.id, name: car.name }).where(inArray(car.id, ids))),
    named(idsOf('loadId'), (ids) =>
      scope.select(load, { id: load.id, name: load.loadNo }).where(inArray(load.id, ids)),
    ),
  ]);
  return moves.map((m) => ({
    id: String(m.id),
    packId: String(m.packId),
    packCode: m.packCode,
    fromState: isPackState(m.fromState) ? m.fromState : null,
    toState: isPackState(m.toState) ? m.toState : PackState.awaitingPickup,
    moveTime: formatDateTime(m.moveTime),
    userName: m.userName,
    deptId: m.deptId ? String(m.deptId) : null,
    deptName: m.deptId ? (depts.get(String(m.deptId)) ?? '') : '',
    lineId: m.lineId ? String(m.lineId) : null,
    lineName: m.lineId ? (lines.get(String(m.lineId)) ?? '') : '',
    carId: m.carId ? String(m.carId) : null,
    carName: m.carId ? (cars.get(String(m.carId)) ?? '') : '',
    loadId: m.loadId ? String(m.loadId) : null,
    loadNo: m.loadId ? (loads.get(String(m.loadId)) ?? '') : '',
    patientCase: m.patientCase,
    chairNo: m.chairNo,
    clinician: m.clinician,
    remark: m.remark,
  }));
}

/** What a cycle's load held: its id, number, status, packs now, and what went into it. */
export interface CycleLoad {
  loadId: string;
  loadNo: string;
  loadStatus: number;
  loadPacks: number;
  /** Packs that went into the load (moves into sterilising with it), as the ledger counts them. */
  loadedPacks: number;
  /** Those packs by article, `牙科手机包×3、基础包×2`: the load as a register names it. */
  loadArticles: string;
}

/** The load of each of these cycles (its id, number, status, its packs now and what went into it). */
export async function loadsOfCycles(
  db: Queryable,
  tenantId: string,
  cycleIds: readonly string[],
): Promise<Map<string, CycleLoad>> {
  if (!cycleIds.length) return new Map();
  const scope = tenantScope(db, tenantId);
  const loads = await scope
    .select(load, { id: load.id, loadNo: load.loadNo, state: load.state, cycleId: load.cycleId })
    .where(anyOf(load.cycleId, cycleIds, 'bigint'));
  if (!loads.length) return new Map();
  const loadIds = loads.map((l) => String(l.id));
  const counts = await scope
    .select(pack, { loadId: pack.loadId, n: sql<number>`count(*)`.mapWith(Number) })
    .where(inArray(pack.loadId, loadIds))
    .groupBy(pack.loadId);
  const countOf = new Map(counts.map((c) => [String(c.loadId), c.n]));
  // From the history, so that a pack since reprocessed into a later load still counts here.
  const m = packMove;
  const n = sql<number>`count(distinct ${m.packId})::int`.mapWith(Number);
  const loaded = await db
    .select({ loadId: m.loadId, article: article.name, n })
    .from(m)
    .innerJoin(pack, and(eq(pack.id, m.packId), rowsOfSameTenant(pack, m)))
    .leftJoin(article, and(eq(article.id, pack.articleId), rowsOfSameTenant(article, pack)))
    .where(tenantRows(m, tenantId, eq(m.toState, PackState.sterilising), inArray(m.loadId, loadIds)))
    .groupBy(m.loadId, article.name)
    .orderBy(asc(m.loadId), desc(n), asc(article.name));
  const held = new Map<string, { n: number; parts: string[] }>();
  for (const row of loaded) {
    const entry = held.get(String(row.loadId)) ?? { n: 0, parts: [] };
    entry.n += row.n;
    entry.parts.push(`${row.article || '?'}×${row.n}`);
    held.set(String(row.loadId), entry);
  }
  return new Map(
    loads.map((l) => {
      const id = String(l.id);
      return [
        String(l.cycleId),
        {
          loadId: id,
          loadNo: l.loadNo,
          loadStatus: l.state,
          loadPacks: countOf.get(id) ?? 0,
          loadedPacks: held.get(id)?.n ?? 0,
          loadArticles: held.get(id)?.parts.join('、') ?? '',
        },
      ];
    }),
  );
}
