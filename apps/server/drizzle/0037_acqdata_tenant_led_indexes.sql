DROP INDEX "mes_acqdata_time_idx";--> statement-breakpoint
DROP INDEX "mes_acqdata_receive_idx";