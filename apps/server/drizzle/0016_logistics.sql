CREATE TABLE "blade_article" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(32) DEFAULT '' NOT NULL,
	"bar_code" varchar(64) DEFAULT '' NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"category" integer DEFAULT 0 NOT NULL,
	"contents" varchar(500) DEFAULT '' NOT NULL,
	"pack_material" integer DEFAULT 0 NOT NULL,
	"climate_controlled" boolean DEFAULT true NOT NULL,
	"sterilize_method" integer,
	"pack_date" date,
	"validity_days" integer,
	"expiry_date" date,
	"owner_dept" bigint,
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
CREATE TABLE "blade_car" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"plate" varchar(16) DEFAULT '' NOT NULL,
	"bar_code" varchar(64) DEFAULT '' NOT NULL,
	"base" bigint,
	"line" bigint,
	"capacity" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "blade_oenmo" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(32) DEFAULT '' NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"customer" varchar(128) DEFAULT '' NOT NULL,
	"product_ids" varchar(1000) DEFAULT '' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
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
ALTER TABLE "blade_line" ADD COLUMN "default_car" bigint;--> statement-breakpoint
ALTER TABLE "blade_line" ADD COLUMN "driver" bigint;--> statement-breakpoint
ALTER TABLE "blade_line" ADD COLUMN "weekdays" varchar(13) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_line" ADD COLUMN "departures" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_article_tenant_id_code_uq" ON "blade_article" USING btree ("tenant_id","code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_article_tenant_id_bar_code_uq" ON "blade_article" USING btree ("tenant_id","bar_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_car_tenant_id_plate_uq" ON "blade_car" USING btree ("tenant_id","plate") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_car_tenant_id_bar_code_uq" ON "blade_car" USING btree ("tenant_id","bar_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_oenmo_tenant_id_code_uq" ON "blade_oenmo" USING btree ("tenant_id","code") WHERE is_deleted = 0;