CREATE TABLE "activity_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"target_id" text,
	"target_title" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "site_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"image" jsonb NOT NULL,
	"names" text[] NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"content" jsonb NOT NULL,
	"kind" text NOT NULL,
	"restored_from" bigint,
	"changed" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" uuid,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "activity_log_actor_idx" ON "activity_log" USING btree ("actor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activity_log_kind_idx" ON "activity_log" USING btree ("kind","id" DESC NULLS LAST);--> statement-breakpoint
-- Written by hand below this line (drizzle-kit does not model triggers; keep it when regenerating).
-- The activity log is append-only: no statement may change or remove an entry, whatever the
-- application does (tests/activity/log.test.ts checks it).
CREATE FUNCTION "activity_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'activity_log is append-only: % is not allowed', TG_OP;
END
$$;--> statement-breakpoint
CREATE TRIGGER "activity_log_append_only" BEFORE UPDATE OR DELETE ON "activity_log"
	FOR EACH ROW EXECUTE FUNCTION "activity_log_append_only"();
