CREATE TABLE "video_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"master_key" text,
	"master_type" text,
	"master_size" bigint,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"duration" real,
	"width" integer,
	"height" integer,
	"frame_rate" real,
	"video_codec" text,
	"audio_codec" text,
	"bitrate" integer,
	"loudness_integrated" real,
	"loudness_range" real,
	"loudness_true_peak" real,
	"streams_key" text,
	"has_preview" boolean DEFAULT true NOT NULL,
	"processing_error" text,
	"captions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uploaded_by" uuid,
	"uploaded_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_versions_status_check" CHECK ("video_versions"."status" in ('queued', 'processing', 'ready', 'failed')),
	CONSTRAINT "video_versions_progress_check" CHECK ("video_versions"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "current_version_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "last_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "video_versions" ADD CONSTRAINT "video_versions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "video_versions_number_idx" ON "video_versions" USING btree ("video_id","number");--> statement-breakpoint
-- Every work so far becomes its own version 1, current: its master and media stay on its row.
INSERT INTO "video_versions" ("video_id", "number", "status", "progress", "duration", "created_at")
  SELECT "id", 1, "status", "progress", "duration", "created_at" FROM "videos";--> statement-breakpoint
UPDATE "videos" SET "current_version_id" = vv."id"
  FROM "video_versions" vv WHERE vv."video_id" = "videos"."id" AND vv."number" = 1;
