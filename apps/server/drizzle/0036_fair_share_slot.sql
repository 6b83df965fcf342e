CREATE TABLE "mes_fair_share_slot" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"kind" varchar(16) NOT NULL,
	"owner" varchar(64) NOT NULL,
	"instance_id" varchar(64) NOT NULL,
	"taken_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mes_fair_share_slot_owner" ON "mes_fair_share_slot" USING btree ("kind","owner");