ALTER TABLE "mes_device_cycle" ADD COLUMN "lethality_kind" varchar(4);--> statement-breakpoint
ALTER TABLE "mes_device_cycle" ADD COLUMN "lethality" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "mes_device_cycle" ADD COLUMN "hold_achieved_seconds" integer;--> statement-breakpoint
ALTER TABLE "mes_device_cycle" ADD COLUMN "parametric_result" integer;--> statement-breakpoint
ALTER TABLE "mes_device_cycle" ADD COLUMN "parametric_reason" varchar(1000);--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "lethality_kind" varchar(4);--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "lethality" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "hold_achieved_seconds" integer;--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "parametric_result" integer;--> statement-breakpoint
ALTER TABLE "mes_disinfection_record" ADD COLUMN "parametric_reason" varchar(1000);--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "lethality_kind" varchar(4) DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "temperature_field" varchar(64) DEFAULT 'chamberTemp' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "plateau_min" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "plateau_max" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "min_hold_seconds" integer;--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "pressure_field" varchar(64) DEFAULT 'chamberPressure' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "pressure_min" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "pressure_max" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "concentration_field" varchar(64) DEFAULT 'chlorine' NOT NULL;--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "min_concentration" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "mes_product_program" ADD COLUMN "min_lethality" numeric(12, 2);