/**
 * `npm run bench:totals` (`node --import tsx bench/totals-bench.ts`): what ingestion pays per
 * message for list totals that follow its rows (engine/totals-invalidation.ts), measured in one run
 * against a cost every message pays anyway, parsing its JSON payload:
 *
 * - `written` for a batch of 500 messages of one tenant, each three IoT values, one acquisition
 *   row and one MQTT-message row (the rows ingestion commits), per message;
 * - `JSON.parse` of such a message's payload, per message;
 * - the NOTIFYs those batches cause when noted within one round: counted, by a publish that only counts.
 *
 * Each figure is the median of BENCH_TOTALS_REPS runs (default 7) of BENCH_TOTALS_BATCHES
 * batches (default 200) after one warm-up.
 */
import { TotalsInvalidation } from '../apps/server/src/engine/totals-invalidation';

const REPS = Number(process.env.BENCH_TOTALS_REPS ?? 7);
const BATCHES = Number(process.env.BENCH_TOTALS_BATCHES ?? 200);
const BATCH = 500;

const tenantId = '000000';
const payload = JSON.stringify({ ts: Date.now(), seq: 12, values: { ph: 7.1, chlorine: 0.52, tankLevel: 48.5 } });
const batch = {
  iot: Array.from({ length: BATCH * 3 }, (_, i) => ({ tenantId, deviceCode: `WL-${i % 20}`, field: 'ph' })),
  acqdata: Array.from({ length: BATCH }, (_, i) => ({ tenantId, deviceCode: `WL-${i % 20}` })),
  mqtt: Array.from({ length: BATCH }, () => ({ tenantId, topic: 'mes/000000/WL-1/telemetry' })),
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Nanoseconds per message of `run` over every batch, median of the repetitions. */
function perMessage(run: () => void): number {
  run();
  const times: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const start = process.hrtime.bigint();
    for (let b = 0; b < BATCHES; b++) run();
    times.push(Number(process.hrtime.bigint() - start) / (BATCHES * BATCH));
  }
  return median(times);
}

async function main(): Promise<void> {
  let notifies = 0;
  const totals = new TotalsInvalidation({
    publish: async () => {
      notifies++;
    },
  });
  const written = perMessage(() => totals.written(batch));
  let sink = 0;
  const parse = perMessage(() => {
    for (let i = 0; i < BATCH; i++) sink += (JSON.parse(payload) as { seq: number }).seq;
  });
  await totals.close();
  const messages = (REPS + 1) * BATCHES * BATCH;
  console.log(`totals.written per message: ${written.toFixed(1)} ns`);
  console.log(`JSON.parse of the payload per message: ${parse.toFixed(1)} ns (checksum ${sink % 7})`);
  console.log(`ratio written / parse: ${(written / parse).toFixed(3)}`);
  console.log(
    `NOTIFYs for ${messages.toLocaleString('en')} messages noted in one synchronous run (one round): ${notifies}`,
  );
}

void main();
