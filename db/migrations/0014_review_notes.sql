CREATE TABLE "review_note_digests" (
	"link_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_note_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"note_id" uuid NOT NULL,
	"text" text NOT NULL,
	"author" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"video_id" uuid NOT NULL,
	"version_id" uuid,
	"version_number" integer NOT NULL,
	"at_ms" integer NOT NULL,
	"until_ms" integer,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"device_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"digested_at" timestamp with time zone,
	CONSTRAINT "review_notes_range_check" CHECK ("review_notes"."until_ms" is null or "review_notes"."until_ms" > "review_notes"."at_ms")
);
--> statement-breakpoint
ALTER TABLE "review_note_digests" ADD CONSTRAINT "review_note_digests_link_id_review_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."review_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_note_replies" ADD CONSTRAINT "review_note_replies_note_id_review_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."review_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_link_id_review_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."review_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_version_id_video_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."video_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_note_replies_note_idx" ON "review_note_replies" USING btree ("note_id","created_at");--> statement-breakpoint
CREATE INDEX "review_notes_link_idx" ON "review_notes" USING btree ("link_id","at_ms");--> statement-breakpoint
CREATE INDEX "review_notes_video_idx" ON "review_notes" USING btree ("video_id","at_ms");--> statement-breakpoint
CREATE INDEX "review_notes_undigested_idx" ON "review_notes" USING btree ("link_id") WHERE "review_notes"."digested_at" is null;