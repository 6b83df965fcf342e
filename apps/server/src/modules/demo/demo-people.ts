import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DEMO_ADMIN_ACCOUNT, formatDateTime, NoticeAudience } from '@mes/contracts';
import { role, user } from '../../platform/db/schema';
import { liveRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import type { DemoSession } from './demo-session';

/**
 * The demo's people and desk (issue 30 point 8, docs/demo.md "Trying a leave"): a second user
 * who approves, so a visitor can run a leave from application to approval, a few notices so the
 * bell's 通知 tab shows something, and the service desk's catalogue. Each is found by account,
 * title or code before it is made, so a second run adds nothing.
 */

/** The approver: holds 人事 (`hr`), so a leave of more than 3 days reaches them too. */
export const DEMO_APPROVER = { account: 'approver', name: '王审批', realName: '王审批', roleAlias: 'hr' } as const;

const DAY = 86_400_000;

/** Released notices, newest last; `daysAgo` from the demo's now. */
const DEMO_NOTICES = [
  {
    title: '欢迎使用演示租户:请假流程可以这样试',
    category: 1,
    daysAgo: 0,
    content:
      '<p>以 admin 登录,在 我的事务 → 请假流程 发起请假,审批人选择「王审批」;再以 approver 登录(密码与 admin 相同),在 待办事务 中审批。超过 3 天的请假还会到 人事 审批。</p>',
  },
  {
    title: '本周五 17:00 起灭菌器停机保养',
    category: 6,
    daysAgo: 2,
    content: '<p>东区消毒基地的两台脉动真空灭菌器本周五 17:00–21:00 保养,期间请把待灭菌包送西区基地。</p>',
  },
  {
    title: '每日 BD 测试合格后方可放行',
    category: 4,
    daysAgo: 6,
    content: '<p>依据 WS 310.3,脉动真空灭菌器每日首锅前做 BD 测试;不合格或未做时,当日灭菌物品不得放行。</p>',
  },
];

/** The service desk's catalogue (category: the desk_service_category dictionary). */
const DEMO_SERVICES = [
  {
    serviceCode: 'REPAIR',
    serviceName: '设备报修',
    category: 1,
    contactName: '刘工',
    contactPhone: '400-820-0001',
    responseHours: 4,
    description: '设备故障、报警无法消除时报修,工程师 4 小时内响应。',
  },
  {
    serviceCode: 'PM',
    serviceName: '预防性保养',
    category: 2,
    contactName: '陈工',
    contactPhone: '400-820-0002',
    responseHours: 48,
    description: '按保养计划上门保养,更换密封圈、过滤器等易损件。',
  },
  {
    serviceCode: 'VALIDATE',
    serviceName: '年度验证',
    category: 5,
    contactName: '周工',
    contactPhone: '400-820-0003',
    responseHours: 72,
    description: '灭菌器年度再验证(温度分布、热穿透),出具验证报告。',
  },
  {
    serviceCode: 'TRAIN',
    serviceName: '操作培训',
    category: 4,
    contactName: '孙老师',
    contactPhone: '400-820-0004',
    responseHours: 168,
    description: '新员工的清洗消毒与灭菌操作培训。',
  },
];

async function approverStep(s: DemoSession): Promise<void> {
  const scope = tenantScope(s.ctx.db, s.tenantId);
  const [found] = await scope
    .select(user, { id: user.id })
    .where(eq(user.account, DEMO_APPROVER.account), liveRows(user))
    .limit(1);
  if (found) return;
  const [hr] = await scope.select(role, { id: role.id }).where(eq(role.roleAlias, DEMO_APPROVER.roleAlias)).limit(1);
  if (!hr) throw new Error(`demo tenant ${s.tenantId} has no role ${DEMO_APPROVER.roleAlias}`);
  // Through the API as the demo administrator would; the password given here is replaced below.
  await s.admin.post('/blade-user/submit', {
    account: DEMO_APPROVER.account,
    password: randomBytes(16).toString('hex'),
    name: DEMO_APPROVER.name,
    realName: DEMO_APPROVER.realName,
    userType: 1,
    roleId: String(hr.id),
    deptId: s.rootDeptId,
  });
  // The demo administrator's password, whatever made it (the first-start card, or the tenant
  // step's generated one in DATA_DIR/demo-password.txt): one password to know, none in the code.
  const [admin] = await scope
    .select(user, { password: user.password })
    .where(eq(user.account, DEMO_ADMIN_ACCOUNT), liveRows(user))
    .limit(1);
  if (admin?.password)
    await scope.update(user).set({ password: admin.password }).where(eq(user.account, DEMO_APPROVER.account));
  s.made.users = (s.made.users ?? 0) + 1;
}

async function noticesStep(s: DemoSession): Promise<void> {
  const have = new Set((await s.admin.rows<{ title: string }>('/blade-desk/notice/list')).map((n) => n.title));
  for (const n of DEMO_NOTICES) {
    if (have.has(n.title)) continue;
    await s.admin.post('/blade-desk/notice/submit', {
      title: n.title,
      category: n.category,
      releaseTime: formatDateTime(new Date(s.options.now - n.daysAgo * DAY - 3_600_000)),
      audienceType: NoticeAudience.everyone,
      content: n.content,
    });
    s.made.notices = (s.made.notices ?? 0) + 1;
  }
}

async function servicesStep(s: DemoSession): Promise<void> {
  const have = new Set(
    (await s.admin.rows<{ serviceCode: string }>('/blade-desk/service/list')).map((r) => r.serviceCode),
  );
  for (const [i, service] of DEMO_SERVICES.entries()) {
    if (have.has(service.serviceCode)) continue;
    await s.admin.post('/blade-desk/service/submit', { ...service, enabled: true, sort: i + 1 });
    s.made.services = (s.made.services ?? 0) + 1;
  }
}

/** The step `people` of DEMO_STEPS: the approver, the notices and the desk's services. */
export async function peopleStep(s: DemoSession): Promise<void> {
  await approverStep(s);
  await noticesStep(s);
  await servicesStep(s);
}
