CREATE TABLE "public_copies" (
	"copy_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "public_copies_state_check" CHECK ("public_copies"."state" in ('copying', 'done', 'withdrawing'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "public_copies_live_idx" ON "public_copies" USING btree ("name") WHERE "public_copies"."state" in ('copying', 'done');--> statement-breakpoint
CREATE INDEX "public_copies_name_idx" ON "public_copies" USING btree ("name");