CREATE TABLE "mes_record_chain_head" (
	"record_table" varchar(64) NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"chain_key" varchar(128) NOT NULL,
	"first_seq" integer DEFAULT 1 NOT NULL,
	"first_prev_hash" varchar(64) NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"last_hash" varchar(64) NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"removed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reanchored_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mes_record_chain_head_record_table_tenant_id_chain_key_pk" PRIMARY KEY("record_table","tenant_id","chain_key")
);
--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "hash_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "state_hash" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_verification_record" ADD COLUMN "hash_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_verification_record" ADD COLUMN "state_hash" varchar(64) DEFAULT '' NOT NULL;