import { formatDateTime, RecordType, VerificationResult, VerificationType } from '@mes/contracts';
import { and, eq } from 'drizzle-orm';
import { disinfectionRecord, verificationRecord } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { chance, uniform } from '../../simulator/rng';
import type { DemoSession } from './demo-session';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A day in the product's zone (UTC+8), as the records and the release read it. */
/** The contract's time text of an instant. */
const at = (ms: number) => formatDateTime(new Date(ms));

const localDay = (instant: Date) => new Date(instant.getTime() + 8 * HOUR).toISOString().slice(0, 10);

interface Load {
  id: string;
  deviceId: string;
  deviceCode: string;
  recordType: number;
  batchNo: string;
  startTime: Date;
  endTime: Date;
}

/** The first and every load of each device and local day, oldest first. */
function byDeviceDay(loads: readonly Load[]): Map<string, Map<string, Load[]>> {
  const devices = new Map<string, Map<string, Load[]>>();
  for (const load of loads) {
    const days = devices.get(load.deviceCode) ?? new Map<string, Load[]>();
    devices.set(load.deviceCode, days);
    const day = localDay(load.startTime);
    days.set(day, [...(days.get(day) ?? []), load]);
  }
  return devices;
}

/**
 * The verification records of the demo month (docs/demo.md), entered through the console's own
 * route as a monitor would, so each is chained and its rules run:
 *
 * - sterilisers: a BD test before each day's first cycle (an occasional fail, retested and passed
 *   before the cycle), and a weekly biological indicator on that day's first load, read after 24 h
 *   of incubation at 56 °C. One of them — the first steriliser's second-last week — fails: the
 *   console recalls its loads since the previous pass and raises the critical warning.
 * - waterline disinfectors: a weekly water sample from a chair's outlet (total bacteria).
 */
export async function verificationStep(s: DemoSession): Promise<void> {
  if (!s.historyMade) return;
  const loads = (await tenantScope(s.ctx.db, s.tenantId)
    .select(disinfectionRecord, {
      id: disinfectionRecord.id,
      deviceId: disinfectionRecord.deviceId,
      deviceCode: disinfectionRecord.deviceCode,
      recordType: disinfectionRecord.recordType,
      batchNo: disinfectionRecord.batchNo,
      startTime: disinfectionRecord.startTime,
      endTime: disinfectionRecord.endTime,
    })
    .where()
    .orderBy(disinfectionRecord.startTime)) as Load[];
  const devices = byDeviceDay(loads.filter((l) => l.deviceId && l.startTime && l.endTime));
  const steriliserCodes = [...devices.keys()].filter((code) =>
    loads.some((l) => l.deviceCode === code && l.recordType === RecordType.sterilisation),
  );
  const failingDevice = steriliserCodes.sort()[0];
  const submit = async (body: Record<string, unknown>) => {
    await s.admin.post('/blade-business/verification/submit', body);
    s.made.verifications = (s.made.verifications ?? 0) + 1;
  };
  for (const [code, days] of devices) {
    const dayList = [...days.keys()].sort();
    const first = days.get(dayList[0] ?? '')?.[0];
    if (!first) continue;
    if (first.recordType === RecordType.sterilisation) {
      const weekly = dayList.filter((_, i) => i % 7 === 3);
      for (const day of dayList) {
        const firstLoad = (days.get(day) ?? [])[0] as Load;
        const bdAt = new Date(firstLoad.startTime.getTime() - uniform(s.rng, 20, 40) * MINUTE);
        const bd = {
          deviceId: firstLoad.deviceId,
          verificationType: VerificationType.bowieDick,
          samplingPoint: '灭菌腔体',
        };
        if (chance(s.rng, 0.04)) {
          await submit({
            ...bd,
            testTime: at(bdAt.getTime() - 35 * MINUTE),
            result: VerificationResult.fail,
            remark: '色块不均匀,排查真空泵后复测',
          });
        }
        await submit({
          ...bd,
          testTime: at(bdAt.getTime()),
          result: VerificationResult.pass,
          testResult: '色块均匀变色',
        });
        if (!weekly.includes(day)) continue;
        const readAt = firstLoad.endTime.getTime() + 24 * HOUR;
        if (readAt > s.options.now) continue;
        const fails = code === failingDevice && day === weekly.at(-2);
        await submit({
          deviceId: firstLoad.deviceId,
          verificationType: VerificationType.biological,
          testTime: at(readAt),
          disinfectionRecordId: firstLoad.id,
          batchNo: firstLoad.batchNo,
          indicatorBrand: '3M Attest 1292',
          indicatorLot: `BI${day.replace(/-/g, '').slice(2)}`,
          incubationTemperature: '56.0',
          incubationHours: '24.0',
          testResult: fails ? '变黄(阳性)' : '紫色(阴性)',
          controlResult: '变黄(阳性)',
          result: fails ? VerificationResult.fail : VerificationResult.pass,
          ...(fails ? { remark: '生物监测阳性,已通知召回并复核灭菌参数' } : {}),
        });
      }
      continue;
    }
    if (first.recordType !== RecordType.waterline) continue;
    for (const [i, day] of dayList.entries()) {
      if (i % 7 !== 5) continue;
      const load = (days.get(day) ?? [])[0] as Load;
      const bacteria = Math.round(uniform(s.rng, 5, 80));
      await submit({
        deviceId: load.deviceId,
        verificationType: VerificationType.waterlineMicrobiology,
        testTime: at(load.endTime.getTime() + 30 * MINUTE),
        disinfectionRecordId: load.id,
        samplingPoint: '1号牙椅出水口',
        measuredValue: String(bacteria),
        unit: 'CFU/mL',
        testResult: `菌落总数 ${bacteria} CFU/mL`,
        result: VerificationResult.pass,
      });
    }
  }
}

/**
 * A passing BD test on each local day of the device's sterilisation records that has none, before
 * that day's first cycle (or at the day's start when it began just after midnight): the judged
 * step replays the last hours after the month, and those can fall on a day the month did not reach
 * (seeding after midnight in UTC+8), where a sterilising day without its BD test is a gap.
 */
export async function bdTestsForNewDays(s: DemoSession, deviceCode: string): Promise<void> {
  const scope = tenantScope(s.ctx.db, s.tenantId);
  const records = await scope
    .select(disinfectionRecord, { deviceId: disinfectionRecord.deviceId, startTime: disinfectionRecord.startTime })
    .where(
      and(eq(disinfectionRecord.deviceCode, deviceCode), eq(disinfectionRecord.recordType, RecordType.sterilisation)),
    )
    .orderBy(disinfectionRecord.startTime);
  const tested = await scope
    .select(verificationRecord, { testTime: verificationRecord.testTime })
    .where(
      and(
        eq(verificationRecord.deviceCode, deviceCode),
        eq(verificationRecord.verificationType, VerificationType.bowieDick),
        eq(verificationRecord.result, VerificationResult.pass),
      ),
    );
  const days = new Set(tested.flatMap((t) => (t.testTime ? [localDay(t.testTime)] : [])));
  for (const record of records) {
    if (!record.startTime || !record.deviceId) continue;
    const day = localDay(record.startTime);
    if (days.has(day)) continue;
    days.add(day);
    const dayStart = Date.parse(`${day}T00:00:00+08:00`);
    await s.admin.post('/blade-business/verification/submit', {
      deviceId: record.deviceId,
      verificationType: VerificationType.bowieDick,
      samplingPoint: '灭菌腔体',
      testTime: at(Math.max(dayStart, record.startTime.getTime() - 25 * MINUTE)),
      result: VerificationResult.pass,
      testResult: '色块均匀变色',
    });
    s.made.verifications = (s.made.verifications ?? 0) + 1;
  }
}
