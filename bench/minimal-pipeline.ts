/**
 * The second baseline of the API benchmark: the least a signed-in page of users can cost on the
 * libraries the server uses. Fastify, an HS256 token checked with jose on every request, one
 * named (prepared) pg query for the page's rows, and the reply as plain `JSON.stringify`. No
 * sessions, scopes, data scope, names or logs: what the server does beyond this is the price of
 * its rules, which the benchmark puts side by side with this.
 *
 * Environment: PORT, DATABASE_URL, TOKEN_SECRET (the benchmark signs the token it sends).
 */
import { createSecretKey } from 'node:crypto';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';

const key = createSecretKey(Buffer.from(process.env.TOKEN_SECRET ?? '', 'utf8'));
// The pool size of the server (`connectDatabase`).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

// The columns the server's page sends (every column but the password and the soft-delete flag),
// in the server's order: by account, then id.
const { rows: columnRows } = await pool.query<{ name: string }>(
  `select column_name as name from information_schema.columns
   where table_name = 'blade_user' and column_name not in ('password', 'is_deleted') order by ordinal_position`,
);
const columns = columnRows.map((c) => `"${c.name}"`).join(', ');
const pageText = `select ${columns} from blade_user where tenant_id = $1 and is_deleted = 0 order by account, id limit $2 offset $3`;
// The total is read once: the server keeps its exact totals cached too, so neither counts per request.
const totals = new Map<string, number>();
async function totalOf(tenantId: string): Promise<number> {
  let total = totals.get(tenantId);
  if (total === undefined) {
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from blade_user where tenant_id = $1 and is_deleted = 0',
      [tenantId],
    );
    total = rows[0]?.n ?? 0;
    totals.set(tenantId, total);
  }
  return total;
}

const pageNumber = (raw: unknown, fallback: number) => {
  const n = typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1000) : fallback;
};

const app = Fastify({ logger: false });
app.get('/page', async (request, reply) => {
  const header = request.headers['blade-auth'];
  const token = typeof header === 'string' ? /^bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
  let tenantId: string;
  try {
    const { payload } = await jwtVerify(token ?? '', key, { algorithms: ['HS256'] });
    tenantId = String(payload.tenant_id);
  } catch {
    return reply.code(401).send({ code: 401, success: false, data: null, msg: '请求未授权' });
  }
  const query = request.query as Record<string, unknown>;
  const current = pageNumber(query.current, 1);
  const size = pageNumber(query.size, 10);
  const [result, total] = await Promise.all([
    pool.query({ name: 'minimal_page', text: pageText, values: [tenantId, size, (current - 1) * size] }),
    totalOf(tenantId),
  ]);
  return {
    code: 200,
    success: true,
    data: { records: result.rows, total, size, current, pages: Math.ceil(total / size) },
    msg: '操作成功',
  };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
