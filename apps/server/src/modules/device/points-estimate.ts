import type { AppContext } from '../../app-context';

/** How long a measured factor is used before it is measured again. */
const REMEASURE_MS = 10 * 60 * 1000;
/** How many of the newest stored messages the factor is measured on. */
const SAMPLE_MESSAGES = 1000;

/**
 * The factor the planner's row estimates of `mes_telemetry` are multiplied by: the view unnests
 * each stored message's values with `jsonb_each`, which PostgreSQL sizes by its declared rows
 * (100 a call) whatever the messages hold, so a day's points were estimated ×33 too high for
 * 3-value messages (docs/series.md "Views over a series"). The factor is the newest messages'
 * mean number of values over those declared rows, measured at most every 10 minutes per process.
 * The newest rows are the highest ids (ingestion's ids grow with time), read backwards on each
 * partition's primary key: no index leads with the collected time (migration 0037), and a time
 * order across tenants would sort every row. It is a property of the stored data's shape, not of any
 * tenant's rows (no row leaves the database), so it is measured over all of them.
 */
export function pointsEstimateScale(ctx: AppContext): () => Promise<number> {
  let measured: { at: number; scale: number } | undefined;
  let pending: Promise<number> | undefined;
  const measure = async () => {
    const { rows } = await ctx.database.pool.query<{ per_message: string | null; assumed: string }>(
      `select avg((select count(*) from jsonb_object_keys(m.data_values)))::float8 as per_message,
              (select prorows from pg_proc where oid = 'jsonb_each(jsonb)'::regprocedure)::float8 as assumed
         from (select data_values from mes_acqdata order by id desc limit $1) m`,
      [SAMPLE_MESSAGES],
    );
    const perMessage = Number(rows[0]?.per_message ?? 0);
    const assumed = Number(rows[0]?.assumed ?? 0);
    // With no message stored yet there is nothing to correct.
    const scale = perMessage > 0 && assumed > 0 ? perMessage / assumed : 1;
    measured = { at: ctx.clock.now(), scale };
    return scale;
  };
  return async () => {
    if (measured && ctx.clock.now() - measured.at < REMEASURE_MS) return measured.scale;
    pending ??= measure().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
