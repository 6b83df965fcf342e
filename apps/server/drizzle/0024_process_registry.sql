CREATE TABLE "mes_server_job_run" (
	"job_id" uuid NOT NULL,
	"name" varchar(100) NOT NULL,
	"instance_id" varchar(64) NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mes_server_job_run_job_id_pk" PRIMARY KEY("job_id")
);
--> statement-breakpoint
CREATE TABLE "mes_server_process" (
	"instance_id" varchar(64) PRIMARY KEY NOT NULL,
	"host" varchar(128) NOT NULL,
	"pid" integer NOT NULL,
	"data_dir" varchar(512),
	"mqtt_client_id" varchar(128),
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp (3) with time zone,
	"stop_reason" varchar(16),
	"takeover_by" varchar(64),
	"takeover_at" timestamp (3) with time zone,
	"takeover_done_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX "mes_server_job_run_instance" ON "mes_server_job_run" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "mes_server_process_client" ON "mes_server_process" USING btree ("mqtt_client_id");