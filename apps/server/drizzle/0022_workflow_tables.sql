CREATE TABLE "mes_flow_definition" (
	"id" bigint PRIMARY KEY NOT NULL,
	"key" varchar(255) DEFAULT '' NOT NULL,
	"name" varchar(255) DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"category" integer,
	"deployment_id" bigint,
	"deployment_time" timestamp (3) with time zone,
	"resource_name" varchar(255) DEFAULT '' NOT NULL,
	"suspension_state" integer DEFAULT 1 NOT NULL,
	"description" varchar(500),
	"xml" text DEFAULT '' NOT NULL,
	"meta" jsonb,
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
CREATE TABLE "mes_flow_deployment" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(255) DEFAULT '' NOT NULL,
	"category" integer,
	"deployment_time" timestamp (3) with time zone,
	"source" varchar(64) DEFAULT '' NOT NULL,
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
CREATE TABLE "mes_flow_history" (
	"id" bigint PRIMARY KEY NOT NULL,
	"process_instance_id" bigint,
	"activity_id" varchar(255) DEFAULT '' NOT NULL,
	"activity_name" varchar(255),
	"activity_type" varchar(64) DEFAULT '' NOT NULL,
	"task_id" bigint,
	"assignee" bigint,
	"assignee_name" varchar(64),
	"start_time" timestamp (3) with time zone,
	"end_time" timestamp (3) with time zone,
	"duration_ms" integer,
	"comment" varchar(1000),
	"is_pass" boolean,
	"seq" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "mes_flow_instance" (
	"id" bigint PRIMARY KEY NOT NULL,
	"process_definition_id" bigint,
	"process_definition_key" varchar(255) DEFAULT '' NOT NULL,
	"process_definition_name" varchar(255) DEFAULT '' NOT NULL,
	"process_definition_version" integer DEFAULT 1 NOT NULL,
	"category" integer,
	"business_table" varchar(64),
	"business_id" varchar(64),
	"start_user" bigint,
	"start_user_name" varchar(64) DEFAULT '' NOT NULL,
	"start_time" timestamp (3) with time zone,
	"end_time" timestamp (3) with time zone,
	"flow_status" integer DEFAULT 1 NOT NULL,
	"delete_reason" varchar(500),
	"parent_instance_id" bigint,
	"parent_execution_id" varchar(128),
	"state" jsonb,
	"fixed_variables" jsonb,
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
CREATE TABLE "mes_flow_model" (
	"id" bigint PRIMARY KEY NOT NULL,
	"model_key" varchar(255) DEFAULT '' NOT NULL,
	"name" varchar(255) DEFAULT '' NOT NULL,
	"description" varchar(500),
	"version" integer DEFAULT 1 NOT NULL,
	"xml" text DEFAULT '' NOT NULL,
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
CREATE TABLE "mes_flow_task" (
	"id" bigint PRIMARY KEY NOT NULL,
	"process_instance_id" bigint,
	"process_definition_id" bigint,
	"process_definition_key" varchar(255) DEFAULT '' NOT NULL,
	"process_definition_name" varchar(255) DEFAULT '' NOT NULL,
	"category" integer,
	"execution_id" varchar(128) DEFAULT '' NOT NULL,
	"task_definition_key" varchar(255) DEFAULT '' NOT NULL,
	"task_name" varchar(255) DEFAULT '' NOT NULL,
	"assignee" bigint,
	"assignee_name" varchar(64) DEFAULT '' NOT NULL,
	"candidate_users" varchar(2000),
	"candidate_groups" varchar(2000),
	"business_table" varchar(64),
	"business_id" varchar(64),
	"start_user" bigint,
	"start_user_name" varchar(64) DEFAULT '' NOT NULL,
	"form_key" varchar(255),
	"created_at" timestamp (3) with time zone,
	"claim_time" timestamp (3) with time zone,
	"end_time" timestamp (3) with time zone,
	"flow_status" integer DEFAULT 1 NOT NULL,
	"is_pass" boolean,
	"comment" varchar(1000),
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
CREATE TABLE "mes_process_leave" (
	"id" bigint PRIMARY KEY NOT NULL,
	"process_definition_id" bigint,
	"process_instance_id" bigint,
	"start_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"end_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"leave_type" integer DEFAULT 1 NOT NULL,
	"reason" varchar(500) DEFAULT '' NOT NULL,
	"task_user" bigint NOT NULL,
	"days" numeric(8, 2) DEFAULT '0.00' NOT NULL,
	"apply_user" bigint,
	"apply_user_name" varchar(64) DEFAULT '' NOT NULL,
	"apply_time" timestamp (3) with time zone,
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
CREATE INDEX "mes_flow_definition_key_idx" ON "mes_flow_definition" USING btree ("tenant_id","key","version");--> statement-breakpoint
CREATE INDEX "mes_flow_history_instance_idx" ON "mes_flow_history" USING btree ("tenant_id","process_instance_id","seq");--> statement-breakpoint
CREATE INDEX "mes_flow_instance_status_idx" ON "mes_flow_instance" USING btree ("tenant_id","flow_status","start_time");--> statement-breakpoint
CREATE INDEX "mes_flow_instance_parent_idx" ON "mes_flow_instance" USING btree ("tenant_id","parent_instance_id");--> statement-breakpoint
CREATE INDEX "mes_flow_task_instance_idx" ON "mes_flow_task" USING btree ("tenant_id","process_instance_id");--> statement-breakpoint
CREATE INDEX "mes_flow_task_assignee_idx" ON "mes_flow_task" USING btree ("tenant_id","assignee","flow_status");