CREATE TABLE "blade_attach" (
	"id" bigint PRIMARY KEY NOT NULL,
	"original_name" varchar(255) DEFAULT '' NOT NULL,
	"name" varchar(500) DEFAULT '' NOT NULL,
	"extension" varchar(32) DEFAULT '' NOT NULL,
	"attach_size" integer DEFAULT 0 NOT NULL,
	"link" varchar(1000) DEFAULT '' NOT NULL,
	"domain_url" varchar(500) DEFAULT '' NOT NULL,
	"oss_code" varchar(64) DEFAULT '' NOT NULL,
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
CREATE TABLE "blade_oss" (
	"id" bigint PRIMARY KEY NOT NULL,
	"category" integer DEFAULT 0 NOT NULL,
	"oss_code" varchar(64) DEFAULT '' NOT NULL,
	"endpoint" varchar(255) DEFAULT '' NOT NULL,
	"access_key" varchar(255) DEFAULT '' NOT NULL,
	"secret_key" text DEFAULT '' NOT NULL,
	"bucket_name" varchar(64) DEFAULT '' NOT NULL,
	"app_id" varchar(64) DEFAULT '' NOT NULL,
	"region" varchar(64) DEFAULT '' NOT NULL,
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
CREATE TABLE "blade_sms" (
	"id" bigint PRIMARY KEY NOT NULL,
	"category" integer DEFAULT 0 NOT NULL,
	"sms_code" varchar(64) DEFAULT '' NOT NULL,
	"template_id" varchar(64) DEFAULT '' NOT NULL,
	"access_key" varchar(255) DEFAULT '' NOT NULL,
	"secret_key" text DEFAULT '' NOT NULL,
	"app_id" varchar(64) DEFAULT '' NOT NULL,
	"region_id" varchar(64) DEFAULT '' NOT NULL,
	"sign_name" varchar(64) DEFAULT '' NOT NULL,
	"endpoint" varchar(255) DEFAULT '' NOT NULL,
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
CREATE TABLE "blade_social_source" (
	"id" bigint PRIMARY KEY NOT NULL,
	"source" varchar(32) DEFAULT '' NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"category" varchar(16) DEFAULT 'oidc' NOT NULL,
	"client_id" varchar(255) DEFAULT '' NOT NULL,
	"client_secret" text DEFAULT '' NOT NULL,
	"authorize_url" varchar(500) DEFAULT '' NOT NULL,
	"token_url" varchar(500) DEFAULT '' NOT NULL,
	"user_info_url" varchar(500) DEFAULT '' NOT NULL,
	"scope" varchar(255) DEFAULT 'openid profile email' NOT NULL,
	"redirect_uri" varchar(500) DEFAULT '' NOT NULL,
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
CREATE TABLE "blade_user_oauth" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"user_id" bigint,
	"source" varchar(32) NOT NULL,
	"uuid" varchar(255) NOT NULL,
	"username" varchar(255) DEFAULT '' NOT NULL,
	"nickname" varchar(255) DEFAULT '' NOT NULL,
	"avatar" varchar(1000) DEFAULT '' NOT NULL,
	"email" varchar(255) DEFAULT '' NOT NULL,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_datasource" ALTER COLUMN "password" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "blade_datasource" ALTER COLUMN "password" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_client" ALTER COLUMN "client_secret" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "blade_user" ALTER COLUMN "password" SET DEFAULT '';--> statement-breakpoint
CREATE UNIQUE INDEX "blade_oss_tenant_id_oss_code_uq" ON "blade_oss" USING btree ("tenant_id","oss_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_sms_tenant_id_sms_code_uq" ON "blade_sms" USING btree ("tenant_id","sms_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_social_source_tenant_id_source_uq" ON "blade_social_source" USING btree ("tenant_id","source") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_user_oauth_source_uuid_uq" ON "blade_user_oauth" USING btree ("tenant_id","source","uuid");--> statement-breakpoint
CREATE INDEX "blade_user_oauth_user_idx" ON "blade_user_oauth" USING btree ("user_id");