-- The five logs become series tables partitioned by create_time (docs/series.md). Each table is
-- rebuilt keeping its rows: renamed aside, recreated as a partitioned table (primary key
-- (id, create_time), as PostgreSQL requires the partition key in it), given a default partition
-- and one partition per UTC day (API log) or week (the others) that holds rows, plus the current
-- period and a week ahead; then the rows are copied and the old table dropped. The partition
-- upkeep job (log.prune) keeps creating partitions ahead and drops expired ones.
-- drizzle-kit does not write PARTITION BY; this migration is hand-written and the schema's
-- snapshot is unchanged (the tables' columns and indexes keep their names).
DO $$
DECLARE
  spec record;
  t text;
  old text;
  step interval;
  p timestamp;
BEGIN
  FOR spec IN SELECT * FROM (VALUES
    ('blade_log_api', 'day'),
    ('blade_log_usual', 'week'),
    ('blade_log_error', 'week'),
    ('blade_log_login', 'week'),
    ('blade_log_operation', 'week')) AS v(name, part)
  LOOP
    t := spec.name;
    old := t || '_unpartitioned';
    step := CASE spec.part WHEN 'day' THEN interval '1 day' WHEN 'week' THEN interval '7 days' ELSE interval '1 month' END;
    EXECUTE format('ALTER TABLE %I RENAME TO %I', t, old);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', t || '_pkey', old || '_pkey');
    EXECUTE format('DROP INDEX IF EXISTS %I', t || '_tenant_time_idx');
    EXECUTE format('DROP INDEX IF EXISTS %I', t || '_time_idx');
    EXECUTE format('UPDATE %I SET create_time = now() WHERE create_time IS NULL', old);
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS) PARTITION BY RANGE (create_time)', t, old);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN create_time SET NOT NULL, ALTER COLUMN create_time SET DEFAULT now()', t);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id, create_time)', t, t || '_pkey');
    EXECUTE format('CREATE INDEX %I ON %I USING btree (tenant_id, create_time)', t || '_tenant_time_idx', t);
    EXECUTE format('CREATE INDEX %I ON %I USING btree (create_time)', t || '_time_idx', t);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', t || '_default', t);
    -- Period starts are UTC timestamps; weeks start on Monday (date_trunc('week')).
    FOR p IN EXECUTE format(
      $q$SELECT DISTINCT date_trunc(%L, create_time AT TIME ZONE 'UTC') FROM %I
         UNION SELECT generate_series(date_trunc(%L, now() AT TIME ZONE 'UTC'),
                                      date_trunc(%L, (now() + interval '7 days') AT TIME ZONE 'UTC'), %L::interval)$q$,
      spec.part, old, spec.part, spec.part, step)
    LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        t || '_p' || to_char(p, 'YYYYMMDD'), t, p AT TIME ZONE 'UTC', (p + step) AT TIME ZONE 'UTC');
    END LOOP;
    EXECUTE format('INSERT INTO %I SELECT * FROM %I', t, old);
    EXECUTE format('DROP TABLE %I', old);
  END LOOP;
END $$;
