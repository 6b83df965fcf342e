CREATE TABLE "mes_report_file" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(128) DEFAULT '' NOT NULL,
	"template_id" bigint,
	"format" varchar(8) DEFAULT '' NOT NULL,
	"params" jsonb,
	"state" integer DEFAULT 0 NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"row_count" integer,
	"size" integer,
	"error" text DEFAULT '' NOT NULL,
	"oss_code" varchar(32) DEFAULT '' NOT NULL,
	"object_key" varchar(128) DEFAULT '' NOT NULL,
	"schedule_id" bigint,
	"create_user_name" varchar(64) DEFAULT '' NOT NULL,
	"finish_time" timestamp (3) with time zone,
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
CREATE TABLE "mes_report_schedule" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"template_id" bigint,
	"format" varchar(8) DEFAULT 'xlsx' NOT NULL,
	"frequency" varchar(8) DEFAULT 'daily' NOT NULL,
	"run_at" varchar(5) DEFAULT '06:00' NOT NULL,
	"weekday" integer DEFAULT 1 NOT NULL,
	"month_day" integer DEFAULT 1 NOT NULL,
	"filters" jsonb,
	"cron" varchar(32) DEFAULT '' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"next_run_time" timestamp (3) with time zone,
	"last_run_time" timestamp (3) with time zone,
	"last_status" varchar(16) DEFAULT '' NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mes_report_template" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"code" varchar(64) DEFAULT '' NOT NULL,
	"source" varchar(64) DEFAULT '' NOT NULL,
	"date_field" varchar(64) DEFAULT '' NOT NULL,
	"period" varchar(8) DEFAULT '' NOT NULL,
	"group_by" jsonb,
	"measures" jsonb,
	"columns" jsonb,
	"filters" jsonb,
	"layout" jsonb,
	"built_in" boolean DEFAULT false NOT NULL,
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
CREATE INDEX "mes_report_file_tenant_id_create_time_idx" ON "mes_report_file" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "mes_report_file_state_create_time_idx" ON "mes_report_file" USING btree ("state","create_time");--> statement-breakpoint
CREATE INDEX "mes_report_schedule_status_next_run_time_idx" ON "mes_report_schedule" USING btree ("status","next_run_time");--> statement-breakpoint
CREATE INDEX "mes_report_template_tenant_id_code_idx" ON "mes_report_template" USING btree ("tenant_id","code");