CREATE SEQUENCE "public"."video_media_revision" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "status" text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "duration" real;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "frame_rate" real;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "video_codec" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "audio_codec" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "bitrate" integer;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "streams_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "processing_error" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "media_revision" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_status_check" CHECK ("videos"."status" in ('queued', 'processing', 'ready', 'failed'));--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_progress_check" CHECK ("videos"."progress" between 0 and 100);