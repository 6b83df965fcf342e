CREATE TABLE "mes_mqtt_delivery" (
	"session" varchar(128) NOT NULL,
	"slot" integer NOT NULL,
	"packet_ids" integer[] NOT NULL,
	"digests" integer[] NOT NULL,
	"committed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mes_mqtt_delivery_session_slot_pk" PRIMARY KEY("session","slot")
);
