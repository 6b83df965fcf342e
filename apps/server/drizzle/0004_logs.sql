CREATE TABLE "blade_log_api" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type" varchar(16) DEFAULT '' NOT NULL,
	"title" varchar(255) DEFAULT '' NOT NULL,
	"service_id" varchar(64) DEFAULT '' NOT NULL,
	"server_host" varchar(255) DEFAULT '' NOT NULL,
	"server_ip" varchar(255) DEFAULT '' NOT NULL,
	"env" varchar(32) DEFAULT '' NOT NULL,
	"method" varchar(16) DEFAULT '' NOT NULL,
	"request_uri" varchar(2000) DEFAULT '' NOT NULL,
	"user_agent" varchar(1000) DEFAULT '' NOT NULL,
	"remote_ip" varchar(255) DEFAULT '' NOT NULL,
	"method_class" varchar(255) DEFAULT '' NOT NULL,
	"method_name" varchar(255) DEFAULT '' NOT NULL,
	"params" text DEFAULT '' NOT NULL,
	"create_by" varchar(64) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"status" integer DEFAULT 0 NOT NULL,
	"time" integer DEFAULT 0 NOT NULL,
	"create_time" timestamp (3) with time zone,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_log_login" (
	"id" bigint PRIMARY KEY NOT NULL,
	"account" varchar(64) DEFAULT '' NOT NULL,
	"user_id" bigint,
	"grant_type" varchar(32) DEFAULT '' NOT NULL,
	"success" integer DEFAULT 0 NOT NULL,
	"message" varchar(255) DEFAULT '' NOT NULL,
	"client_id" varchar(64) DEFAULT '' NOT NULL,
	"remote_ip" varchar(255) DEFAULT '' NOT NULL,
	"user_agent" varchar(1000) DEFAULT '' NOT NULL,
	"create_time" timestamp (3) with time zone,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_log_operation" (
	"id" bigint PRIMARY KEY NOT NULL,
	"title" varchar(64) DEFAULT '' NOT NULL,
	"resource_code" varchar(64) DEFAULT '' NOT NULL,
	"operation" varchar(16) DEFAULT '' NOT NULL,
	"ids" text DEFAULT '' NOT NULL,
	"changes" text DEFAULT '' NOT NULL,
	"create_by" varchar(64) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_time" timestamp (3) with time zone,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_log_usual" (
	"id" bigint PRIMARY KEY NOT NULL,
	"log_level" varchar(16) DEFAULT '' NOT NULL,
	"log_id" varchar(64) DEFAULT '' NOT NULL,
	"log_data" text DEFAULT '' NOT NULL,
	"service_id" varchar(64) DEFAULT '' NOT NULL,
	"server_host" varchar(255) DEFAULT '' NOT NULL,
	"server_ip" varchar(255) DEFAULT '' NOT NULL,
	"env" varchar(32) DEFAULT '' NOT NULL,
	"method" varchar(16) DEFAULT '' NOT NULL,
	"request_uri" varchar(2000) DEFAULT '' NOT NULL,
	"user_agent" varchar(1000) DEFAULT '' NOT NULL,
	"remote_ip" varchar(255) DEFAULT '' NOT NULL,
	"method_class" varchar(255) DEFAULT '' NOT NULL,
	"method_name" varchar(255) DEFAULT '' NOT NULL,
	"params" text DEFAULT '' NOT NULL,
	"create_by" varchar(64) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"time" varchar(64) DEFAULT '' NOT NULL,
	"create_time" timestamp (3) with time zone,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_log_error" ALTER COLUMN "create_time" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "blade_log_error" ALTER COLUMN "create_time" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "blade_log_api_tenant_time_idx" ON "blade_log_api" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_log_api_time_idx" ON "blade_log_api" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "blade_log_login_tenant_time_idx" ON "blade_log_login" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_log_login_time_idx" ON "blade_log_login" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "blade_log_operation_tenant_time_idx" ON "blade_log_operation" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_log_operation_time_idx" ON "blade_log_operation" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "blade_log_usual_tenant_time_idx" ON "blade_log_usual" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_log_usual_time_idx" ON "blade_log_usual" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "blade_log_error_time_idx" ON "blade_log_error" USING btree ("create_time");