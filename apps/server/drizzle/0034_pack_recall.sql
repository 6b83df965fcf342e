CREATE TABLE "mes_recall" (
	"id" bigint PRIMARY KEY NOT NULL,
	"verification_id" bigint,
	"verification_no" varchar(32) DEFAULT '' NOT NULL,
	"reason" integer DEFAULT 0 NOT NULL,
	"device_id" bigint,
	"device_code" varchar(64) DEFAULT '' NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"recall_time" timestamp (3) with time zone,
	"recall_user_name" varchar(64) DEFAULT '' NOT NULL,
	"close_time" timestamp (3) with time zone,
	"close_user_name" varchar(64) DEFAULT '' NOT NULL,
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
CREATE TABLE "mes_recall_pack" (
	"id" bigint PRIMARY KEY NOT NULL,
	"recall_id" bigint,
	"pack_id" bigint,
	"pack_code" varchar(32) DEFAULT '' NOT NULL,
	"article_name" varchar(64) DEFAULT '' NOT NULL,
	"load_id" bigint,
	"load_no" varchar(32) DEFAULT '' NOT NULL,
	"state" integer DEFAULT 0 NOT NULL,
	"dept_id" bigint,
	"line_id" bigint,
	"car_id" bigint,
	"used_dept_id" bigint,
	"patient_case" varchar(64) DEFAULT '' NOT NULL,
	"action" integer,
	"action_user_name" varchar(64) DEFAULT '' NOT NULL,
	"action_time" timestamp (3) with time zone,
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
CREATE UNIQUE INDEX "mes_recall_tenant_id_verification_no_uq" ON "mes_recall" USING btree ("tenant_id","verification_no") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_recall_tenant_id_state_idx" ON "mes_recall" USING btree ("tenant_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "mes_recall_pack_tenant_id_recall_id_pack_id_uq" ON "mes_recall_pack" USING btree ("tenant_id","recall_id","pack_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_recall_pack_tenant_id_pack_id_idx" ON "mes_recall_pack" USING btree ("tenant_id","pack_id");