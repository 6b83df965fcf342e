CREATE TABLE "blade_scope_api" (
	"id" bigint PRIMARY KEY NOT NULL,
	"menu_id" bigint NOT NULL,
	"resource_code" varchar(255) DEFAULT '' NOT NULL,
	"scope_name" varchar(255) DEFAULT '' NOT NULL,
	"scope_path" varchar(255) DEFAULT '' NOT NULL,
	"scope_type" integer DEFAULT 1 NOT NULL,
	"remark" varchar(255) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_scope_data" (
	"id" bigint PRIMARY KEY NOT NULL,
	"menu_id" bigint NOT NULL,
	"resource_code" varchar(255) DEFAULT '' NOT NULL,
	"scope_name" varchar(255) DEFAULT '' NOT NULL,
	"scope_type" integer DEFAULT 1 NOT NULL,
	"scope_column" varchar(255) DEFAULT '' NOT NULL,
	"scope_field" varchar(255) DEFAULT '*' NOT NULL,
	"scope_class" varchar(500) DEFAULT '' NOT NULL,
	"scope_value" varchar(2000) DEFAULT '' NOT NULL,
	"remark" varchar(255) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_datasource" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(100) DEFAULT '' NOT NULL,
	"driver_class" varchar(100) DEFAULT 'org.postgresql.Driver' NOT NULL,
	"url" varchar(500) DEFAULT '' NOT NULL,
	"username" varchar(100) DEFAULT '' NOT NULL,
	"password" varchar(1000) NOT NULL,
	"remark" varchar(255) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_dept_line" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"line_id" bigint NOT NULL,
	"dept_id" bigint NOT NULL,
	"direction" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_region" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(12) DEFAULT '' NOT NULL,
	"parent_code" varchar(12) DEFAULT '00' NOT NULL,
	"ancestors" varchar(255) DEFAULT '' NOT NULL,
	"name" varchar(32) DEFAULT '' NOT NULL,
	"region_level" integer DEFAULT 1 NOT NULL,
	"province_code" varchar(12) DEFAULT '' NOT NULL,
	"province_name" varchar(32) DEFAULT '' NOT NULL,
	"city_code" varchar(12) DEFAULT '' NOT NULL,
	"city_name" varchar(32) DEFAULT '' NOT NULL,
	"district_code" varchar(12) DEFAULT '' NOT NULL,
	"district_name" varchar(32) DEFAULT '' NOT NULL,
	"town_code" varchar(12) DEFAULT '' NOT NULL,
	"town_name" varchar(32) DEFAULT '' NOT NULL,
	"village_code" varchar(12) DEFAULT '' NOT NULL,
	"village_name" varchar(32) DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" varchar(255) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_role_scope" (
	"id" bigint PRIMARY KEY NOT NULL,
	"scope_category" integer NOT NULL,
	"scope_id" bigint NOT NULL,
	"role_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_dept" ALTER COLUMN "dept_name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_dict" ALTER COLUMN "code" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_dict" ALTER COLUMN "dict_key" SET DEFAULT '-1';--> statement-breakpoint
ALTER TABLE "blade_dict" ALTER COLUMN "dict_value" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ALTER COLUMN "code" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ALTER COLUMN "dict_key" SET DEFAULT '-1';--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ALTER COLUMN "dict_value" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_menu" ALTER COLUMN "code" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_menu" ALTER COLUMN "name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_client" ALTER COLUMN "client_id" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_client" ALTER COLUMN "authorized_grant_types" SET DEFAULT 'refresh_token,password,captcha';--> statement-breakpoint
ALTER TABLE "blade_client" ALTER COLUMN "access_token_validity" SET DEFAULT 3600;--> statement-breakpoint
ALTER TABLE "blade_client" ALTER COLUMN "refresh_token_validity" SET DEFAULT 604800;--> statement-breakpoint
ALTER TABLE "blade_param" ALTER COLUMN "param_name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_param" ALTER COLUMN "param_key" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_param" ALTER COLUMN "param_value" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_post" ALTER COLUMN "post_code" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_post" ALTER COLUMN "post_name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_role" ALTER COLUMN "role_name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_role" ALTER COLUMN "role_alias" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_tenant" ALTER COLUMN "tenant_id" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_tenant" ALTER COLUMN "tenant_name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_top_menu" ALTER COLUMN "code" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_top_menu" ALTER COLUMN "name" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_user" ALTER COLUMN "account" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "user_ext" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "blade_scope_api_resource_code_idx" ON "blade_scope_api" USING btree ("resource_code");--> statement-breakpoint
CREATE INDEX "blade_scope_data_resource_code_idx" ON "blade_scope_data" USING btree ("resource_code");--> statement-breakpoint
CREATE UNIQUE INDEX "blade_dept_line_uq" ON "blade_dept_line" USING btree ("tenant_id","line_id","direction","dept_id");--> statement-breakpoint
CREATE INDEX "blade_dept_line_dept_idx" ON "blade_dept_line" USING btree ("dept_id");--> statement-breakpoint
CREATE UNIQUE INDEX "blade_region_code_uq" ON "blade_region" USING btree ("code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_region_parent_code_idx" ON "blade_region" USING btree ("parent_code");--> statement-breakpoint
CREATE UNIQUE INDEX "blade_role_scope_uq" ON "blade_role_scope" USING btree ("role_id","scope_category","scope_id");--> statement-breakpoint
CREATE UNIQUE INDEX "blade_dict_code_dict_key_uq" ON "blade_dict" USING btree ("code","dict_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_dict_biz_tenant_id_code_dict_key_uq" ON "blade_dict_biz" USING btree ("tenant_id","code","dict_key") WHERE is_deleted = 0;