CREATE TABLE "mes_device" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_code" varchar(64) DEFAULT '' NOT NULL,
	"device_name" varchar(64) DEFAULT '' NOT NULL,
	"product_id" bigint,
	"dept_id" bigint,
	"chairs" integer DEFAULT 0 NOT NULL,
	"install_date" date,
	"location" varchar(128) DEFAULT '' NOT NULL,
	"serial_no" varchar(64) DEFAULT '' NOT NULL,
	"firmware" varchar(32) DEFAULT '' NOT NULL,
	"run_state" integer DEFAULT 1 NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"last_connect_time" timestamp (3) with time zone,
	"last_disconnect_time" timestamp (3) with time zone,
	"last_activity_time" timestamp (3) with time zone,
	"mqtt_client_id" varchar(64) DEFAULT '' NOT NULL,
	"mqtt_secret_hash" varchar(64) DEFAULT '' NOT NULL,
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
CREATE TABLE "mes_plc_variable" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"label" varchar(64) DEFAULT '' NOT NULL,
	"address" varchar(64) DEFAULT '' NOT NULL,
	"register_type" integer DEFAULT 4 NOT NULL,
	"data_type" varchar(8) DEFAULT 'FLOAT' NOT NULL,
	"length" integer DEFAULT 1 NOT NULL,
	"byte_order" varchar(4) DEFAULT 'ABCD' NOT NULL,
	"access" integer DEFAULT 1 NOT NULL,
	"multiplier" numeric(18, 6) DEFAULT '1.000000' NOT NULL,
	"offset" numeric(18, 6) DEFAULT '0.000000' NOT NULL,
	"raw_low" numeric(18, 6),
	"raw_high" numeric(18, 6),
	"eng_low" numeric(18, 6),
	"eng_high" numeric(18, 6),
	"decimals" integer DEFAULT 2 NOT NULL,
	"unit" varchar(16) DEFAULT '' NOT NULL,
	"poll_interval" integer DEFAULT 1000 NOT NULL,
	"deadband" numeric(18, 6) DEFAULT '0.000000' NOT NULL,
	"report_strategy" integer DEFAULT 1 NOT NULL,
	"limit_hh" numeric(18, 4),
	"limit_h" numeric(18, 4),
	"limit_l" numeric(18, 4),
	"limit_ll" numeric(18, 4),
	"limit_level" integer DEFAULT 2 NOT NULL,
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
CREATE TABLE "mes_product" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_code" varchar(64) DEFAULT '' NOT NULL,
	"product_name" varchar(64) DEFAULT '' NOT NULL,
	"category" integer DEFAULT 1 NOT NULL,
	"protocol" varchar(16) DEFAULT 'mqtt-json' NOT NULL,
	"inactivity_seconds" integer DEFAULT 600 NOT NULL,
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
CREATE TABLE "mes_product_alarm_rule" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint,
	"field_key" varchar(64) DEFAULT '' NOT NULL,
	"operator" varchar(2) DEFAULT '>' NOT NULL,
	"threshold" numeric(18, 4) DEFAULT '0.0000' NOT NULL,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	"level" integer DEFAULT 2 NOT NULL,
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
CREATE TABLE "mes_product_field" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint,
	"field_key" varchar(64) DEFAULT '' NOT NULL,
	"field_name" varchar(64) DEFAULT '' NOT NULL,
	"data_type" varchar(16) DEFAULT 'float' NOT NULL,
	"unit" varchar(16) DEFAULT '' NOT NULL,
	"precision" integer DEFAULT 2 NOT NULL,
	"access" varchar(4) DEFAULT 'r' NOT NULL,
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
CREATE TABLE "mes_product_program" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint,
	"program_no" integer DEFAULT 0 NOT NULL,
	"program_name" varchar(64) DEFAULT '' NOT NULL,
	"duration_minutes" integer DEFAULT 0 NOT NULL,
	"target_temperature" numeric(8, 2),
	"target_concentration" numeric(10, 2),
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
CREATE UNIQUE INDEX "mes_device_tenant_id_device_code_uq" ON "mes_device" USING btree ("tenant_id","device_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_device_mqtt_client_id_uq" ON "mes_device" USING btree ("mqtt_client_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_device_tenant_id_product_id_idx" ON "mes_device" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mes_plc_variable_tenant_id_product_id_name_uq" ON "mes_plc_variable" USING btree ("tenant_id","product_id","name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "mes_product_tenant_id_product_code_uq" ON "mes_product" USING btree ("tenant_id","product_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "mes_product_alarm_rule_tenant_id_product_id_idx" ON "mes_product_alarm_rule" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "mes_product_field_tenant_id_product_id_idx" ON "mes_product_field" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "mes_product_program_tenant_id_product_id_idx" ON "mes_product_program" USING btree ("tenant_id","product_id");