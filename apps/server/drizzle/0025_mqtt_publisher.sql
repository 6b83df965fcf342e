CREATE TABLE "mes_mqtt_publisher" (
	"client_id" varchar(128) PRIMARY KEY NOT NULL,
	"packet_ids" integer[] NOT NULL,
	"digests" integer[] NOT NULL,
	"committed_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
