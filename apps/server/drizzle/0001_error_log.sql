CREATE TABLE "blade_log_error" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"service_id" varchar(64) DEFAULT '' NOT NULL,
	"server_host" varchar(255) DEFAULT '' NOT NULL,
	"server_ip" varchar(255) DEFAULT '' NOT NULL,
	"env" varchar(32) DEFAULT '' NOT NULL,
	"method" varchar(16) DEFAULT '' NOT NULL,
	"request_uri" varchar(2000) DEFAULT '' NOT NULL,
	"user_agent" varchar(1000) DEFAULT '' NOT NULL,
	"remote_ip" varchar(255) DEFAULT '' NOT NULL,
	"method_class" varchar(255) DEFAULT '' NOT NULL,
	"method_name" varchar(2000) DEFAULT '' NOT NULL,
	"params" text DEFAULT '' NOT NULL,
	"time" varchar(64) DEFAULT '' NOT NULL,
	"create_by" varchar(64) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"stack_trace" text DEFAULT '' NOT NULL,
	"exception_name" varchar(255) DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"file_name" varchar(1000) DEFAULT '' NOT NULL,
	"line_number" integer
);
--> statement-breakpoint
CREATE INDEX "blade_log_error_tenant_time_idx" ON "blade_log_error" USING btree ("tenant_id","create_time");