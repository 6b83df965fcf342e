CREATE TABLE "blade_line" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"base" bigint,
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
CREATE UNIQUE INDEX "blade_line_tenant_id_name_uq" ON "blade_line" USING btree ("tenant_id","name") WHERE is_deleted = 0;