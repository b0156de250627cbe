CREATE TABLE "activity_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"entry_id" bigint,
	"times" integer DEFAULT 1 NOT NULL,
	"addresses" integer DEFAULT 0 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "activity_counts_entry_idx" ON "activity_counts" USING btree ("entry_id");