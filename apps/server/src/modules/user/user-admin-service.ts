import { and, eq, inArray } from 'drizzle-orm';
import { bilingual, invalidParamText, userResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { ChangeArgs, ResourceHooks, ResourceService, Row } from '../../engine/resource-routes';
import { hashPassword, md5Hex } from '../../platform/auth/passwords';
import { splitIds, type AuthContext } from '../../platform/auth/request-auth';
import { user } from '../../platform/db/schema';
import { idsValue } from '../../platform/http/request-params';
import { badRequest, notFound } from '../../platform/http/errors';
import { unlockAccount } from '../auth/sign-in';
import { readParam } from '../../platform/db/params';
import {
  assertMayManage,
  assertPicksInTenant,
  assertQuota,
  assertUserType,
  checkUserExt,
  deptAndChildrenFilter,
  passwordMd5,
  UserAdminMessages,
} from './user-admin-rules';
import { decorateUsers, USER_DECORATE_READS } from './user-names';
import { isId } from '../../platform/db/ids';
import { assertDeptsPickable } from '../system/dept-picks';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

type Tx = ChangeArgs['tx'];

const MAX_IDS = 1000;
/** BladeX's fallback when the `account.initPassword` parameter is missing. */
const DEFAULT_INIT_PASSWORD = '123456';
const ACCOUNT = /^[A-Za-z0-9_.@-]{1,45}$/;
/** The length of the role_id column. */
const ROLE_ID_MAX = userResource.fields.roleId.max ?? 1000;

function accountList(raw: unknown): string[] {
  const joined = Array.isArray(raw) ? raw.map(String).join(',') : typeof raw === 'string' ? raw : '';
  const accounts = [...new Set(splitIds(joined))];
  if (!accounts.length) throw badRequest(bilingual('missingParam', 'userIds'));
  if (!accounts.every((a) => ACCOUNT.test(a)))
    throw badRequest(invalidParamText('accounts', { zh: '账号格式不正确', en: 'holds a malformed account' }));
  if (accounts.length > MAX_IDS)
    throw badRequest(
      invalidParamText('accounts', { zh: `一次最多 ${MAX_IDS} 条`, en: `at most ${MAX_IDS} at a time` }),
    );
  return accounts;
}

/** The hooks that make the generic user resource the user administration of the spec. */
export function userHooks(ctx: AppContext): ResourceHooks {
  return {
    listParams: {
      names: ['deptId'],
      where(query, auth) {
        const raw = query.deptId;
        if (raw === undefined || raw === '') return undefined;
        if (typeof raw !== 'string' || !isId(raw))
          throw badRequest(invalidParamText('deptId', { zh: '应为编号', en: 'must be an id' }));
        return deptAndChildrenFilter(auth.tenantId, raw);
      },
    },
    // Names are looked up in one batch per kind for the page's rows: measured faster here than
    // correlated subqueries in the page query, whose planning cost dominates a 10-row page.
    decorate: (rows) => decorateUsers(ctx.lookups, rows),
    decorateReads: USER_DECORATE_READS,
    async beforeChange({ tx, auth, adding, values, existing }) {
      const md5 = adding ? passwordMd5(values.password) : undefined;
      if (adding) await assertQuota(tx, auth.tenantId);
      if (existing) await assertMayManage(tx, auth, [existing]);
      if (typeof values.roleId === 'string') await assertMayManage(tx, auth, [], splitIds(values.roleId));
      await assertPicksInTenant(tx, auth.tenantId, values);
      if (typeof values.deptId === 'string') {
        // Only departments newly given: one the user already had stays, seen by the caller or not.
        const had = new Set(splitIds(String(existing?.deptId ?? '')));
        const added = splitIds(values.deptId).filter((id) => !had.has(id));
        await assertDeptsPickable(tx, ctx, auth, added, UserAdminMessages.deptOutOfScope);
      }
      if (values.userType !== undefined) values.userType = await assertUserType(tx, values.userType);
      // Hashed last: argon2 is the slow step, not worth doing for a submit about to be refused.
      if (md5) values.password = await hashPassword(md5);
    },
    async beforeRemove({ tx, auth, rows }) {
      if (rows.some((r) => r.id === auth.userId)) throw badRequest(UserAdminMessages.removeSelf);
      await assertMayManage(tx, auth, rows);
    },
  };
}

/** Accounts of the users an event names, for the usual log. */
const accountsOf = (rows: { account: string }[]) => rows.map((r) => r.account).join(',');

/**
 * The user operations beyond the generic ones (grant, reset-password, update-platform, unlock).
 * Each acts only on users the caller may read (tenant and data scope): one id outside that
 * refuses the whole call and changes nothing.
 */
export class UserAdminService {
  constructor(
    private readonly ctx: AppContext,
    private readonly users: ResourceService,
  ) {}

  /** The users of `ids`, locked for the change; 404 unless every one is visible to the caller. */
  private async targets(tx: Tx, auth: AuthContext, ids: string[]) {
    const rows = await tx
      .select({ id: user.id, account: user.account, roleId: user.roleId })
      .from(user)
      .where(and(await this.users.readScope(auth), inArray(user.id, ids)))
      .for('update');
    if (rows.length !== ids.length) throw notFound(bilingual('rowNotFound'));
    return rows;
  }

  private audit(auth: AuthContext) {
    return { updateUser: auth.userId, updateTime: new Date() };
  }

  private changed(auth: AuthContext): Promise<void> {
    return this.ctx.totals.changed('user', auth.tenantId);
  }

  /** The user with its platform settings (`platform-detail`). */
  async platformDetail(id: unknown, auth: AuthContext): Promise<Row> {
    const row = await this.users.detail(id, auth);
    return { ...row, userExt: row.userExt ?? '' };
  }

  /**
   * Replaces the roles of the users. Their sessions go on with the new roles from the next
   * request: the user notice below reaches every process's session state.
   */
  async grant(rawUserIds: unknown, rawRoleIds: unknown, auth: AuthContext): Promise<void> {
    const userIds = idsValue(rawUserIds, 'userIds', { required: true });
    const roleIds = idsValue(rawRoleIds, 'roleIds', { required: true });
    const roleId = roleIds.join(',');
    if (roleId.length > ROLE_ID_MAX)
      throw badRequest(invalidParamText('roleIds', { zh: '角色过多', en: 'has too many roles' }));
    try {
      await this.ctx.db
        .transaction(async (tx) => {
          await assertPicksInTenant(tx, auth.tenantId, { roleId });
          const targets = await this.targets(tx, auth, userIds);
          await assertMayManage(tx, auth, targets, roleIds);
          await tenantScope(tx, auth.tenantId)
            .update(user)
            .set({ roleId, ...this.audit(auth) })
            .where(inArray(user.id, userIds));
          return targets;
        })
        .then((targets) =>
          this.ctx.logs.usual(auth, {
            logId: 'user.grant',
            logData: `用户 ${accountsOf(targets)} 的角色设为 ${roleId}`,
          }),
        );
    } finally {
      await this.changed(auth);
    }
  }

  /**
   * Sets the password of the users to the `account.initPassword` parameter; every session of
   * theirs ends (a new password hash, announced by the user notice below).
   */
  async resetPassword(rawUserIds: unknown, auth: AuthContext): Promise<void> {
    const userIds = idsValue(rawUserIds, 'userIds', { required: true });
    const initPassword = (await readParam(this.ctx.db, 'account.initPassword')) || DEFAULT_INIT_PASSWORD;
    // One argon2 hash for the batch: every reset user gets the same, publicly configured password
    // anyway, and hashing per user would make a large batch take seconds.
    const password = await hashPassword(md5Hex(initPassword));
    try {
      await this.ctx.db
        .transaction(async (tx) => {
          const targets = await this.targets(tx, auth, userIds);
          await assertMayManage(tx, auth, targets);
          await tenantScope(tx, auth.tenantId)
            .update(user)
            .set({ password, ...this.audit(auth) })
            .where(inArray(user.id, userIds));
          return targets;
        })
        .then((targets) =>
          this.ctx.logs.usual(auth, {
            logId: 'user.resetPassword',
            logData: `重置用户 ${accountsOf(targets)} 的密码为初始密码`,
            level: 'warn',
          }),
        );
    } finally {
      await this.changed(auth);
    }
  }

  /** The platform a user signs in from (`user_type`) and the settings that platform needs. */
  async updatePlatform(params: { userId: unknown; userType: unknown; userExt: unknown }, auth: AuthContext) {
    if (typeof params.userId !== 'string' || !isId(params.userId))
      throw badRequest(bilingual('missingParam', 'userId'));
    const userId = params.userId;
    const userExt = checkUserExt(params.userExt);
    try {
      await this.ctx.db.transaction(async (tx) => {
        const userType = await assertUserType(tx, params.userType);
        const targets = await this.targets(tx, auth, [userId]);
        await assertMayManage(tx, auth, targets);
        await tenantScope(tx, auth.tenantId)
          .update(user)
          .set({ userType, userExt, ...this.audit(auth) })
          .where(eq(user.id, userId));
      });
    } finally {
      await this.changed(auth);
    }
  }

  /** Lifts the sign-in lock (too many failures) of the users, by id or by account. */
  async unlock(params: { userIds: unknown; accounts: unknown }, auth: AuthContext): Promise<void> {
    const scope = await this.users.readScope(auth);
    let accounts: string[];
    if (params.userIds !== undefined && params.userIds !== '') {
      const ids = idsValue(params.userIds, 'userIds', { required: true });
      const rows = await this.ctx.db
        .select({ account: user.account })
        .from(user)
        .where(and(scope, inArray(user.id, ids)));
      if (rows.length !== ids.length) throw notFound(bilingual('rowNotFound'));
      accounts = rows.map((r) => r.account);
    } else {
      const wanted = accountList(params.accounts);
      const rows = await this.ctx.db
        .select({ account: user.account })
        .from(user)
        .where(and(scope, inArray(user.account, wanted)));
      if (rows.length !== wanted.length) throw notFound(bilingual('rowNotFound'));
      accounts = rows.map((r) => r.account);
    }
    // The lock is kept per tenant and account, so only the caller's tenant is touched.
    await Promise.all(accounts.map((account) => unlockAccount(this.ctx, auth.tenantId, account)));
    this.ctx.logs.usual(auth, { logId: 'user.unlock', logData: `解封账号 ${accounts.join(',')}` });
  }
}
