CREATE TABLE "mes_warning_escalation" (
	"id" bigint PRIMARY KEY NOT NULL,
	"level" integer DEFAULT 1 NOT NULL,
	"after_minutes" integer DEFAULT 30 NOT NULL,
	"role_id" bigint,
	"notify_sms" boolean DEFAULT false NOT NULL,
	"sms_template_id" varchar(64) DEFAULT '' NOT NULL,
	"notify_live" boolean DEFAULT true NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"remark" varchar(255) DEFAULT '' NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mes_warning_history" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"warning_id" bigint NOT NULL,
	"action" varchar(16) NOT NULL,
	"policy_id" bigint,
	"after_minutes" integer,
	"role_id" bigint,
	"role_name" varchar(255) DEFAULT '' NOT NULL,
	"user_ids" text DEFAULT '' NOT NULL,
	"user_names" text DEFAULT '' NOT NULL,
	"notice_id" bigint,
	"live" boolean DEFAULT false NOT NULL,
	"sms_status" varchar(16) DEFAULT 'off' NOT NULL,
	"sms_detail" varchar(1000) DEFAULT '' NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mes_warning_escalation_tenant_id_level_after_minutes_role_id_uq" ON "mes_warning_escalation" USING btree ("tenant_id","level","after_minutes","role_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_warning_history_step_uq" ON "mes_warning_history" USING btree ("warning_id","policy_id") WHERE "mes_warning_history"."policy_id" is not null;--> statement-breakpoint
CREATE INDEX "mes_warning_history_warning_idx" ON "mes_warning_history" USING btree ("tenant_id","warning_id","at");