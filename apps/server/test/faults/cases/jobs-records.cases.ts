import { describe, expect, it } from 'vitest';
import { sleep, until } from '../support/ports';
import type { FaultStack } from '../support/stack';
import { note } from '../support/tally';

/**
 * Issue 26, points 10 and 12, on the real server (embedded broker: the broker plays no part): a
 * report generation interrupted by kill -9, and record chains tampered with in SQL.
 */

export function jobAndRecordCases(s: FaultStack): void {
  describe('a crash in the middle of a job, and record chains tampered with', () => {
    it('kill -9 mid report generation: after the restart the file ends done or failed with an error within a minute', async () => {
      await s.revive();
      // Enough rows that rendering the PDF takes a while: a list of warnings, one row each.
      const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await s.pool.query(
        `insert into mes_warning (id, warning_no, device_code, warning_type, level, message, start_time, tenant_id)
       select 9000000000000 + g, 'W' || g, 'DEV-' || (g % 50), 'threshold', 1 + g % 3, '温度超限 ' || g,
              $1::date + (g % 80000) * interval '1 second', '000000'
         from generate_series(1, 40000) g`,
        [day],
      );
      const templateId = await s.api.data<string>('POST', '/blade-report/template/submit', {
        name: '故障测试 告警明细',
        source: 'warning',
        dateField: 'startTime',
        columns: ['deviceCode', 'level', 'message', 'startTime'],
      });
      const fileId = await s.api.data<string>('POST', '/blade-report/report/rest/generate', {
        templateId,
        format: 'pdf',
        params: { from: day, to: day },
      });
      type File = { state: number; progress: number; error?: string };
      const detail = () => s.api.data<File>('GET', `/blade-report/report/rest/detail?id=${fileId}`);
      let before: File = { state: 0, progress: 0 };
      await until(
        async () => {
          before = await detail();
          return before.state === 1 && before.progress >= 30;
        },
        60_000,
        'the report to be generating',
        30,
      );
      await s.server.kill('SIGKILL');
      const restartAt = Date.now();
      await s.server.start();
      let after: File = before;
      const ended = await until(
        async () => {
          after = await detail();
          return after.state === 2 || after.state === 3;
        },
        60_000,
        'the report file to end done or failed',
        500,
      )
        .then(() => Date.now() - restartAt)
        .catch(() => -1);
      note(
        'kill -9 mid report',
        'embedded',
        `killed at state ${before.state}, ${before.progress} % | after restart: state ${after.state}, ${after.progress} %, error "${after.error ?? ''}" | ended ${ended < 0 ? 'never (60 s)' : `${ended} ms after the restart`}`,
      );
      expect(ended).toBeGreaterThanOrEqual(0);
      // Failed is acceptable only with the error shown on the file.
      if (after.state === 3) expect(after.error ?? '').not.toBe('');
    });

    it('chain tampering (newest deleted, oldest deleted, a review field edited): verify names every broken chain', async () => {
      await s.revive();
      const devices = await s.api.registerDevices(`${s.tag}Q`, 4, { category: 1 });
      const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
      const ids = new Map<string, string[]>();
      for (const d of devices) {
        const list: string[] = [];
        for (let i = 0; i < 3; i += 1) {
          const end = Date.now() - (5 - i) * 3_600_000;
          list.push(
            await s.api.data<string>('POST', '/blade-business/disinfection/submit', {
              deviceId: d.id,
              startTime: stamp(end - 30 * 60_000),
              endTime: stamp(end),
              result: 1,
              programName: '134℃ 标准',
              maxTemperature: '134.50',
              batchNo: `B-${i}`,
            }),
          );
        }
        ids.set(d.code, list);
      }
      type Report = Record<string, unknown>;
      const whole = await s.api.data<Report>('GET', '/blade-business/disinfection/verify');
      const [newest, oldest, reviewed, untouched] = devices.map((d) => d.code);
      await s.pool.query(`delete from mes_disinfection_record where id = $1`, [ids.get(newest!)![2]]);
      await s.pool.query(`delete from mes_disinfection_record where id = $1`, [ids.get(oldest!)![0]]);
      await s.pool.query(
        `update mes_disinfection_record set review_status = 1, reviewer_name = '冒名', review_time = now() where id = $1`,
        [ids.get(reviewed!)![1]],
      );
      // The job that makes records from cycles must not mend a chain around the deletion either.
      await sleep(2000);
      const report = await s.api.call<Report>('GET', '/blade-business/disinfection/verify');
      const perChain = new Map<string, unknown>();
      for (const code of [newest!, oldest!, reviewed!, untouched!]) {
        const r = await s.api.data<Report>('GET', `/blade-business/disinfection/verify?deviceCode=${code}`);
        perChain.set(code, r.broken ?? null);
      }
      const named = brokenChains(report.body.data);
      note(
        'chain tampering',
        'embedded',
        `before: ${JSON.stringify(whole)} | after, tenant-wide: ${report.status} names [${named.join(', ')}] | per chain: newest deleted ${perChain.get(newest!) ? 'broken' : 'whole'}, oldest deleted ${perChain.get(oldest!) ? 'broken' : 'whole'}, review edited ${perChain.get(reviewed!) ? 'broken' : 'whole'}, untouched ${perChain.get(untouched!) ? 'broken' : 'whole'}`,
      );
      expect(brokenChains(whole)).toEqual([]);
      expect(report.status).toBe(200);
      expect(new Set(named)).toEqual(new Set([newest, oldest, reviewed]));
      expect(perChain.get(newest!)).toBeTruthy();
      expect(perChain.get(oldest!)).toBeTruthy();
      expect(perChain.get(reviewed!)).toBeTruthy();
      expect(perChain.get(untouched!)).toBeNull();
    });
  });
}

/**
 * The chains a verify report names: `brokenChains` (every broken chain, its key in `partition`;
 * docs/records.md). `broken` (the first one) is kept for older clients.
 */
function brokenChains(data: unknown): string[] {
  const d = (data ?? {}) as { brokenChains?: { partition?: unknown }[] };
  return [...new Set((d.brokenChains ?? []).map((b) => String(b.partition ?? '')))];
}
