CREATE TABLE "mes_load" (
	"id" bigint PRIMARY KEY NOT NULL,
	"load_no" varchar(32) DEFAULT '' NOT NULL,
	"device_id" bigint,
	"cycle_id" bigint,
	"state" integer DEFAULT 1 NOT NULL,
	"release_user_name" varchar(64) DEFAULT '' NOT NULL,
	"release_time" timestamp (3) with time zone,
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
CREATE TABLE "mes_pack" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(32) DEFAULT '' NOT NULL,
	"article_id" bigint,
	"state" integer DEFAULT 1 NOT NULL,
	"dept_id" bigint,
	"line_id" bigint,
	"car_id" bigint,
	"load_id" bigint,
	"patient_case" varchar(64) DEFAULT '' NOT NULL,
	"sterile_date" date,
	"expiry_date" date,
	"last_move_time" timestamp (3) with time zone,
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
CREATE TABLE "mes_pack_move" (
	"id" bigint PRIMARY KEY NOT NULL,
	"pack_id" bigint,
	"pack_code" varchar(32) DEFAULT '' NOT NULL,
	"from_state" integer,
	"to_state" integer DEFAULT 0 NOT NULL,
	"move_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"user_name" varchar(64) DEFAULT '' NOT NULL,
	"dept_id" bigint,
	"line_id" bigint,
	"car_id" bigint,
	"load_id" bigint,
	"patient_case" varchar(64) DEFAULT '' NOT NULL,
	"chair_no" varchar(32) DEFAULT '' NOT NULL,
	"clinician" varchar(64) DEFAULT '' NOT NULL,
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
CREATE UNIQUE INDEX "mes_load_tenant_id_load_no_uq" ON "mes_load" USING btree ("tenant_id","load_no") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_load_tenant_id_cycle_id_uq" ON "mes_load" USING btree ("tenant_id","cycle_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_pack_tenant_id_code_uq" ON "mes_pack" USING btree ("tenant_id","code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_pack_tenant_id_load_id_idx" ON "mes_pack" USING btree ("tenant_id","load_id");--> statement-breakpoint
CREATE INDEX "mes_pack_tenant_id_state_idx" ON "mes_pack" USING btree ("tenant_id","state");--> statement-breakpoint
CREATE INDEX "mes_pack_move_tenant_id_pack_id_move_time_idx" ON "mes_pack_move" USING btree ("tenant_id","pack_id","move_time");--> statement-breakpoint
CREATE INDEX "mes_pack_move_tenant_id_patient_case_idx" ON "mes_pack_move" USING btree ("tenant_id","patient_case");--> statement-breakpoint
CREATE INDEX "mes_pack_move_tenant_id_load_id_idx" ON "mes_pack_move" USING btree ("tenant_id","load_id");