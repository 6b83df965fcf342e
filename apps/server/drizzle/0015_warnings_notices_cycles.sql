CREATE TABLE "mes_desk_service" (
	"id" bigint PRIMARY KEY NOT NULL,
	"service_code" varchar(32) DEFAULT '' NOT NULL,
	"service_name" varchar(64) DEFAULT '' NOT NULL,
	"category" integer DEFAULT 1 NOT NULL,
	"contact_name" varchar(32) DEFAULT '' NOT NULL,
	"contact_phone" varchar(32) DEFAULT '' NOT NULL,
	"response_hours" integer DEFAULT 24 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" varchar(255) DEFAULT '' NOT NULL,
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
CREATE TABLE "mes_device_cycle" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_id" bigint,
	"device_code" varchar(64) DEFAULT '' NOT NULL,
	"dept_id" bigint,
	"program_no" integer DEFAULT 0 NOT NULL,
	"program_name" varchar(64) DEFAULT '' NOT NULL,
	"start_time" timestamp (3) with time zone,
	"end_time" timestamp (3) with time zone,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	"result" integer DEFAULT 1 NOT NULL,
	"fault_code" integer DEFAULT 0 NOT NULL,
	"max_temperature" numeric(12, 2),
	"min_temperature" numeric(12, 2),
	"max_pressure" numeric(12, 2),
	"min_concentration" numeric(12, 2),
	"hold_seconds" integer,
	"figures" jsonb,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_notice" (
	"id" bigint PRIMARY KEY NOT NULL,
	"title" varchar(255) DEFAULT '' NOT NULL,
	"category" integer DEFAULT 1 NOT NULL,
	"release_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"audience_type" integer DEFAULT 1 NOT NULL,
	"audience_ids" varchar(2000) DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
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
CREATE TABLE "mes_warning" (
	"id" bigint PRIMARY KEY NOT NULL,
	"warning_no" varchar(32) DEFAULT '' NOT NULL,
	"device_id" bigint,
	"device_code" varchar(64) DEFAULT '' NOT NULL,
	"dept_id" bigint,
	"warning_type" varchar(16) DEFAULT '' NOT NULL,
	"level" integer DEFAULT 2 NOT NULL,
	"rule_key" varchar(64) DEFAULT '' NOT NULL,
	"field" varchar(64) DEFAULT '' NOT NULL,
	"trigger_value" varchar(64) DEFAULT '' NOT NULL,
	"threshold" varchar(64) DEFAULT '' NOT NULL,
	"message" varchar(500) DEFAULT '' NOT NULL,
	"start_time" timestamp (3) with time zone,
	"last_time" timestamp (3) with time zone,
	"end_time" timestamp (3) with time zone,
	"ack_time" timestamp (3) with time zone,
	"clear_time" timestamp (3) with time zone,
	"status" integer DEFAULT 1 NOT NULL,
	"repeat_count" integer DEFAULT 1 NOT NULL,
	"handle_user" bigint,
	"handle_user_name" varchar(64) DEFAULT '' NOT NULL,
	"handle_result" varchar(500) DEFAULT '' NOT NULL,
	"handle_time" timestamp (3) with time zone,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mes_device_cycle_day" (
	"tenant_id" varchar(12) NOT NULL,
	"day" date NOT NULL,
	"device_code" varchar(64) NOT NULL,
	"device_id" bigint,
	"dept_id" bigint,
	"cycles" integer DEFAULT 0 NOT NULL,
	"passes" integer DEFAULT 0 NOT NULL,
	"fails" integer DEFAULT 0 NOT NULL,
	"aborts" integer DEFAULT 0 NOT NULL,
	"seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "mes_device_cycle_day_tenant_id_day_device_code_pk" PRIMARY KEY("tenant_id","day","device_code")
);
--> statement-breakpoint
CREATE TABLE "blade_notice_read" (
	"tenant_id" varchar(12) NOT NULL,
	"notice_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"read_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blade_notice_read_tenant_id_user_id_notice_id_pk" PRIMARY KEY("tenant_id","user_id","notice_id")
);
--> statement-breakpoint
ALTER TABLE "mes_product_alarm_rule" ALTER COLUMN "threshold" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "mes_product_alarm_rule" ALTER COLUMN "threshold" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product_alarm_rule" ADD COLUMN "rule_type" varchar(16) DEFAULT 'threshold' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_desk_service_tenant_id_service_code_uq" ON "mes_desk_service" USING btree ("tenant_id","service_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_device_cycle_tenant_id_device_code_start_time_uq" ON "mes_device_cycle" USING btree ("tenant_id","device_code","start_time");--> statement-breakpoint
CREATE INDEX "mes_device_cycle_tenant_id_end_time_idx" ON "mes_device_cycle" USING btree ("tenant_id","end_time");--> statement-breakpoint
CREATE INDEX "blade_notice_tenant_id_release_time_idx" ON "blade_notice" USING btree ("tenant_id","release_time");--> statement-breakpoint
CREATE UNIQUE INDEX "mes_warning_tenant_id_warning_no_uq" ON "mes_warning" USING btree ("tenant_id","warning_no") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_warning_tenant_id_start_time_idx" ON "mes_warning" USING btree ("tenant_id","start_time");--> statement-breakpoint
CREATE INDEX "mes_warning_tenant_id_status_idx" ON "mes_warning" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "mes_warning_tenant_id_device_code_rule_key_idx" ON "mes_warning" USING btree ("tenant_id","device_code","rule_key");