import { and, eq, inArray } from 'drizzle-orm';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { bilingual, checkField, userResource, UserStatus } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { buildResourceService, type ChangeArgs, type ResourceService } from '../../engine/resource-routes';
import { hashPassword } from '../../platform/auth/passwords';
import type { AuthContext } from '../../platform/auth/request-auth';
import { nextId } from '../../platform/db/ids';
import { role, user, userOauth } from '../../platform/db/schema';
import { badRequest, HttpError, notFound } from '../../platform/http/errors';
import { idsValue } from '../../platform/http/request-params';
import { linkTicket } from '../auth/social-sign-in';
import { dropTicket, readTicket, SocialMessages, type SocialTicket } from '../auth/social/social-session';
import { readParam } from '../../platform/db/params';
import { assertMayManage, assertPicksInTenant, assertQuota, passwordMd5, UserAdminMessages } from './user-admin-rules';
import { findTenant, isTenantExpired } from './user-repository';
import { assertDeptsPickable } from '../system/dept-picks';

export const GuestMessages = {
  closed: { zh: '注册功能已关闭', en: 'Registration is closed' },
  tenantRequired: { zh: '请先输入租户编号', en: 'Please enter the tenant ID first' },
  accountRequired: { zh: '请先输入账号名称', en: 'Please enter the account name first' },
  passwordRequired: { zh: '请先输入密码', en: 'Please enter the password first' },
  tenantFormat: { zh: '租户编号格式不正确', en: 'The tenant ID is malformed' },
  notPending: { zh: '只能审核待审核的用户', en: 'Only users awaiting approval can be reviewed' },
  noRole: { zh: '请为通过审核的用户选择角色', en: 'Choose a role for the approved users' },
} as const;

const TENANT_ID = /^[0-9A-Za-z]{1,12}$/;
const PG_UNIQUE_VIOLATION = '23505';

/** The ticket's provider account was linked meanwhile (told apart from quota refusals, which stay silent). */
class LinkedElsewhere extends Error {}
/** The role a guest gets on approval when the approver names none. */
export const DEFAULT_GUEST_ROLE = 'user';

const textOf = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code === PG_UNIQUE_VIOLATION || e.cause?.code === PG_UNIQUE_VIOLATION;
}

export interface GuestInput {
  tenantId: unknown;
  name: unknown;
  account: unknown;
  password: unknown;
  oauthId: unknown;
}

/**
 * Guest registration and its approval (docs/sign-in.md). A guest account is created pending
 * (status 0) with no role and no department: it cannot sign in by any grant until an
 * administrator approves it, which gives it roles (the approver's pick, else the tenant's `user`
 * role). A refusal removes the account, freeing its name.
 */
export class GuestRegistration {
  /** Tenant, data scope and soft delete exactly as the user screen applies them. */
  private readonly users: ResourceService;

  constructor(private readonly ctx: AppContext) {
    this.users = buildResourceService(ctx, { def: userResource, table: user });
  }

  /** Whether registration is open: only the parameter's `true` opens it (a missing one keeps it closed). */
  async isOpen(): Promise<boolean> {
    return (await readParam(this.ctx.db, 'account.registerUser'))?.trim().toLowerCase() === 'true';
  }

  /**
   * Registers a pending guest. The reply must not tell whether the tenant or the account exists
   * (docs/sign-in.md): once the form is well formed, an unknown, disabled or expired tenant, a
   * taken account and a full quota all end like a success, with nothing stored, after the same
   * password hash. Returns the new id, or undefined when nothing was stored.
   */
  async register(input: GuestInput): Promise<string | undefined> {
    if (!(await this.isOpen())) throw badRequest(GuestMessages.closed);

    const tenantId = textOf(input.tenantId);
    if (!tenantId) throw badRequest(GuestMessages.tenantRequired);
    if (!TENANT_ID.test(tenantId)) throw badRequest(GuestMessages.tenantFormat);
    const account = textOf(input.account);
    if (!account) throw badRequest(GuestMessages.accountRequired);
    const accountError = checkField(userResource.fields.account, account, 'zh');
    if (accountError) throw badRequest(accountError);
    const name = textOf(input.name);
    // The name fills both the nickname and the real name, so it must fit the shorter one.
    const nameError = name ? checkField(userResource.fields.realName, name, 'zh') : undefined;
    if (nameError) throw badRequest(nameError);
    if (input.password === undefined || input.password === null || input.password === '')
      throw badRequest(GuestMessages.passwordRequired);
    const md5 = passwordMd5(input.password);

    const ticketText = textOf(input.oauthId);
    let ticket: SocialTicket | undefined;
    if (ticketText) {
      // A ticket is a secret only its holder has; refusing a bad one tells nothing about others.
      ticket = await readTicket(this.ctx, ticketText, tenantId);
      if (!ticket) throw badRequest(SocialMessages.badTicket);
    }

    // Hashed before anything is looked up, so every outcome costs the same hash.
    const password = await hashPassword(md5);
    const found = await findTenant(this.ctx.db, tenantId);
    if (!found || found.status !== 1 || isTenantExpired(found, this.ctx.clock.now())) return undefined;

    const id = nextId();
    const now = new Date();
    try {
      await this.ctx.db.transaction(async (tx) => {
        // Pending guests hold a place: the quota counts every live account.
        await assertQuota(tx, tenantId);
        await tenantScope(tx, tenantId)
          .insert(user)
          .values({
            id,
            account,
            password,
            name: name || account.slice(0, 20),
            realName: name,
            userType: 1,
            roleId: '',
            deptId: '',
            status: UserStatus.pending,
            createTime: now,
            updateTime: now,
          });
        if (ticket && !(await linkTicket(tx, ticket, id))) throw new LinkedElsewhere();
      });
    } catch (error) {
      if (error instanceof LinkedElsewhere) throw badRequest(SocialMessages.linkedElsewhere);
      // A taken account or a full tenant: the same reply as a success (nothing was stored).
      if (isUniqueViolation(error) || error instanceof HttpError) return undefined;
      throw error;
    } finally {
      await this.ctx.totals.changed('user', tenantId);
    }
    if (ticket) await dropTicket(this.ctx, ticketText);
    return id;
  }

  /** The pending users of `ids` the caller may see, locked; refuses the whole call otherwise. */
  private async pendingTargets(tx: ChangeArgs['tx'], auth: AuthContext, ids: string[]) {
    const rows = await tx
      .select({ id: user.id, status: user.status, roleId: user.roleId })
      .from(user)
      .where(and(await this.users.readScope(auth), inArray(user.id, ids)))
      .for('update');
    if (rows.length !== ids.length) throw notFound(bilingual('rowNotFound'));
    if (rows.some((r) => r.status !== UserStatus.pending)) throw badRequest(GuestMessages.notPending);
    return rows;
  }

  /** The roles approved guests get: the approver's pick, else the tenant's `user` role. */
  private async approvalRoles(auth: AuthContext, raw: unknown): Promise<string[]> {
    const picked = idsValue(raw, 'roleIds', { max: 50 });
    if (picked.length) return picked;
    const [fallback] = await tenantScope(this.ctx.db, auth.tenantId)
      .select(role, { id: role.id })
      .where(eq(role.roleAlias, DEFAULT_GUEST_ROLE))
      .limit(1);
    if (!fallback) throw badRequest(GuestMessages.noRole);
    return [fallback.id];
  }

  /** 审核通过: the guests become active with the roles (and department, if given) chosen. */
  async approve(params: { ids: unknown; roleIds: unknown; deptId: unknown }, auth: AuthContext): Promise<void> {
    const ids = idsValue(params.ids, 'ids', { required: true });
    const roleIds = await this.approvalRoles(auth, params.roleIds);
    const deptIds = idsValue(params.deptId, 'deptId', { max: 50 });
    const values: Partial<typeof user.$inferInsert> = {
      status: UserStatus.active,
      roleId: roleIds.join(','),
      updateUser: auth.userId,
      updateTime: new Date(),
    };
    if (deptIds.length) values.deptId = deptIds.join(',');
    try {
      await this.ctx.db.transaction(async (tx) => {
        await assertPicksInTenant(tx, auth.tenantId, { roleId: values.roleId, deptId: values.deptId });
        await assertDeptsPickable(tx, this.ctx, auth, deptIds, UserAdminMessages.deptOutOfScope);
        await this.pendingTargets(tx, auth, ids);
        // Approving must not become a way to hand out the administrator role.
        await assertMayManage(tx, auth, [], roleIds);
        await tenantScope(tx, auth.tenantId).update(user).set(values).where(inArray(user.id, ids));
      });
    } finally {
      await this.ctx.totals.changed('user', auth.tenantId);
    }
  }

  /** 审核拒绝: the guests are removed, and their third-party accounts may be linked again. */
  async refuse(rawIds: unknown, auth: AuthContext): Promise<void> {
    const ids = idsValue(rawIds, 'ids', { required: true });
    try {
      await this.ctx.db.transaction(async (tx) => {
        await this.pendingTargets(tx, auth, ids);
        const scope = tenantScope(tx, auth.tenantId);
        await scope
          .update(user)
          .set({ isDeleted: 1, updateUser: auth.userId, updateTime: new Date() })
          .where(inArray(user.id, ids));
        await scope
          .update(userOauth)
          .set({ userId: null, updateTime: new Date() })
          .where(inArray(userOauth.userId, ids));
      });
    } finally {
      await this.ctx.totals.changed('user', auth.tenantId);
    }
  }
}
