-- Unlogged: a counter's write skips the WAL flush (5 ms → under 1 ms per attempt on a real server).
-- A crash of the database empties the table, and replicas do not carry it: counters restart then,
-- which no client can cause (docs/decisions/062-limits-in-the-database-health-and-metrics.md).
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");