ALTER TABLE "mes_device" ADD COLUMN "maintenance" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product" ADD COLUMN "phase_field" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product" ADD COLUMN "fault_field" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product" ADD COLUMN "program_field" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product" ADD COLUMN "remaining_field" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product" ADD COLUMN "fault_warning_level" integer DEFAULT 1;--> statement-breakpoint
-- Hand-written: a state set by hand to maintenance stays maintenance; every other state is derived
-- from the device's data (the expression of modules/telemetry/run-state.ts; no product names a phase or
-- fault field yet, so only maintenance and open warnings count until the next batch of each device).
UPDATE "mes_device" SET "maintenance" = true WHERE "run_state" = 4 AND "is_deleted" = 0;--> statement-breakpoint
UPDATE "mes_device" d SET "run_state" = n.state
  FROM (
    SELECT d.id, CASE
        WHEN d.maintenance THEN 4
        WHEN p.fault_warning_level IS NOT NULL AND EXISTS (
          SELECT 1 FROM mes_warning w
           WHERE w.tenant_id = d.tenant_id AND w.device_code = d.device_code AND w.is_deleted = 0
             AND w.status IN (1, 3) AND w.level <= p.fault_warning_level) THEN 3
        ELSE 1 END AS state
      FROM mes_device d
      LEFT JOIN mes_product p ON p.id = d.product_id AND p.is_deleted = 0
     WHERE d.is_deleted = 0
  ) n
 WHERE d.id = n.id AND d.run_state IS DISTINCT FROM n.state;
