/**
 * A server process that completes one workflow task and is then killed mid-transaction
 * (apps/server/test/workflow.test.ts, "kill -9"): it moves the instance — task completed, history,
 * engine state all written — prints `moved` and waits inside the still-open transaction for the
 * parent's SIGKILL. Environment: `DATABASE_URL`, `TENANT`, `USER_ID`, `ACCOUNT`, `TASK_ID`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { connectDatabase } from '../../src/platform/db/database';
import { FlowService } from '../../src/modules/flow/flow-service';
import { createAppContext } from '../../src/runtime';

const env = process.env;

class StallingFlow extends FlowService {
  override async advance(...args: Parameters<FlowService['advance']>): ReturnType<FlowService['advance']> {
    await super.advance(...args);
    process.stdout.write('moved\n');
    // Never returns: the transaction stays open until the process is killed.
    return new Promise(() => undefined);
  }
}

const databaseUrl = env.DATABASE_URL ?? '';
const database = connectDatabase(databaseUrl, 3);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-flow-kill-'));
const ctx = await createAppContext({ database, databaseUrl, jwtSecret: 'x'.repeat(64), dataDir, apiLog: false });
const flow = new StallingFlow(ctx, pino({ level: 'silent' }));
const userId = env.USER_ID ?? '';
await flow.complete(
  {
    tenantId: env.TENANT ?? '000000',
    userId,
    deptId: '',
    roleIds: [],
    roleAliases: [],
    account: env.ACCOUNT ?? '',
    clientId: 'saber',
    claims: {} as never,
  },
  { taskId: env.TASK_ID ?? '', isPass: true, comment: 'KILLED', variables: {} },
);
