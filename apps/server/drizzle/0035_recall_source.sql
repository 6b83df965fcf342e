DROP INDEX "mes_recall_tenant_id_verification_no_uq";--> statement-breakpoint
ALTER TABLE "mes_recall" ADD COLUMN "source" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_recall" ADD COLUMN "source_id" bigint;--> statement-breakpoint
ALTER TABLE "mes_recall" ADD COLUMN "source_no" varchar(32) DEFAULT '' NOT NULL;--> statement-breakpoint
-- Hand-edited (docs/packs.md "Recalls"): every recall so far was made by a verification record.
UPDATE "mes_recall" SET "source" = 1, "source_id" = "verification_id", "source_no" = "verification_no";--> statement-breakpoint
CREATE UNIQUE INDEX "mes_recall_tenant_id_source_source_no_uq" ON "mes_recall" USING btree ("tenant_id","source","source_no") WHERE is_deleted = 0;--> statement-breakpoint
ALTER TABLE "mes_recall" DROP COLUMN "verification_id";--> statement-breakpoint
ALTER TABLE "mes_recall" DROP COLUMN "verification_no";--> statement-breakpoint
-- Hand-edited: pack expiry warnings named the pack where a device code goes; the pack's code is
-- now the trigger value and its expiry day the threshold (the old trigger value), no device code.
UPDATE "mes_warning" SET "device_code" = '', "trigger_value" = "device_code", "threshold" = "trigger_value"
 WHERE "warning_type" = 'pack-expiry' AND "device_code" <> '';
