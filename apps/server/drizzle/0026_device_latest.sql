CREATE TABLE "mes_device_latest" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_code" varchar(64) DEFAULT '' NOT NULL,
	"latest" jsonb,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mes_device_latest_key_uq" ON "mes_device_latest" USING btree ("tenant_id","device_code") WHERE is_deleted = 0;--> statement-breakpoint
-- The latest values carried over: one row per device from its live per-field rows, each field as
-- {"ts": epoch ms, "v": number or text} ("q" when the quality was not good). A row without a time
-- was never a value model-data showed; the smallest id of a device's rows is the new row's id.
INSERT INTO "mes_device_latest" ("id", "tenant_id", "device_code", "latest")
SELECT min("id"), "tenant_id", "device_code",
       jsonb_object_agg("field",
         jsonb_build_object(
           'ts', floor(extract(epoch FROM "ts") * 1000)::bigint,
           'v', coalesce(to_jsonb(trim_scale("num_value")), to_jsonb("text_value"), 'null'::jsonb))
         || CASE WHEN "quality" <> 0 THEN jsonb_build_object('q', "quality") ELSE '{}'::jsonb END)
  FROM "mes_telemetry_latest"
 WHERE "is_deleted" = 0 AND "ts" IS NOT NULL
 GROUP BY "tenant_id", "device_code";--> statement-breakpoint
DROP TABLE "mes_telemetry_latest" CASCADE;
