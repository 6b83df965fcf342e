CREATE TABLE "mes_maintenance_plan" (
	"id" bigint PRIMARY KEY NOT NULL,
	"plan_name" varchar(64) DEFAULT '' NOT NULL,
	"product_id" bigint,
	"interval_cycles" integer,
	"interval_days" integer,
	"notice_cycles" integer DEFAULT 0 NOT NULL,
	"notice_days" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "mes_maintenance_plan_check" (
	"id" bigint PRIMARY KEY NOT NULL,
	"plan_id" bigint,
	"check_name" varchar(128) DEFAULT '' NOT NULL,
	"standard" varchar(255) DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "mes_maintenance_record" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_id" bigint,
	"plan_id" bigint,
	"dept_id" bigint,
	"technician" varchar(64) DEFAULT '' NOT NULL,
	"start_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"end_time" timestamp (3) with time zone,
	"result" integer,
	"state" integer DEFAULT 1 NOT NULL,
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
CREATE TABLE "mes_maintenance_record_check" (
	"id" bigint PRIMARY KEY NOT NULL,
	"record_id" bigint,
	"check_name" varchar(128) DEFAULT '' NOT NULL,
	"result" integer,
	"note" varchar(255) DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "mes_maintenance_record_part" (
	"id" bigint PRIMARY KEY NOT NULL,
	"record_id" bigint,
	"part_name" varchar(128) DEFAULT '' NOT NULL,
	"part_no" varchar(64) DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "mes_maintenance_due_notice" (
	"tenant_id" varchar(12) NOT NULL,
	"device_id" bigint NOT NULL,
	"plan_id" bigint NOT NULL,
	"period_from" timestamp (3) with time zone NOT NULL,
	"notice_id" bigint NOT NULL,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mes_maintenance_due_notice_tenant_id_device_id_plan_id_period_from_pk" PRIMARY KEY("tenant_id","device_id","plan_id","period_from")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mes_maintenance_plan_tenant_id_product_id_plan_name_uq" ON "mes_maintenance_plan" USING btree ("tenant_id","product_id","plan_name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_maintenance_plan_check_tenant_id_plan_id_idx" ON "mes_maintenance_plan_check" USING btree ("tenant_id","plan_id");--> statement-breakpoint
CREATE INDEX "mes_maintenance_record_tenant_id_device_id_end_time_idx" ON "mes_maintenance_record" USING btree ("tenant_id","device_id","end_time");--> statement-breakpoint
CREATE INDEX "mes_maintenance_record_check_tenant_id_record_id_idx" ON "mes_maintenance_record_check" USING btree ("tenant_id","record_id");--> statement-breakpoint
CREATE INDEX "mes_maintenance_record_part_tenant_id_record_id_idx" ON "mes_maintenance_record_part" USING btree ("tenant_id","record_id");