-- Sparkplug B births (docs/mqtt.md "Sparkplug B"): the current birth of each edge node and device,
-- kept by ingestion so that every server process, and a restarted one, reads data and deaths against
-- the same aliases and bdSeq. A plain table, as drizzle-kit generated it.
CREATE TABLE "mes_sparkplug_birth" (
	"id" bigint PRIMARY KEY NOT NULL,
	"edge_node" varchar(64) DEFAULT '' NOT NULL,
	"device_id" varchar(64) DEFAULT '' NOT NULL,
	"bd_seq" integer,
	"metrics" jsonb,
	"born_at" timestamp (3) with time zone,
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
CREATE UNIQUE INDEX "mes_sparkplug_birth_key_uq" ON "mes_sparkplug_birth" USING btree ("tenant_id","edge_node","device_id") WHERE is_deleted = 0;