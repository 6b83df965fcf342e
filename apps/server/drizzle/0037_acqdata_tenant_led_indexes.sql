-- mes_acqdata keeps no index that leads with a time (docs/ingest-performance.md "Indexes"): each
-- index costs ingestion ~1 µs of PostgreSQL's CPU a message. The two dropped served only reads
-- across tenants, always bounded in time: the platform's lists read the tenant-led indexes by skip
-- scan (a range per tenant) and sort that range; the points-estimate sample reads the newest rows
-- by id on the primary key.
DROP INDEX "mes_acqdata_time_idx";--> statement-breakpoint
DROP INDEX "mes_acqdata_receive_idx";
