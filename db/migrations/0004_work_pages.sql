CREATE TABLE "video_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"video_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "slug" text;--> statement-breakpoint
-- Existing works get a slug from their title (src/contract/slug.ts's rule, ASCII only here); a
-- title whose slug another work already has gets the start of its id appended.
UPDATE "videos" SET "slug" = "named"."slug"
FROM (
  SELECT "id", CASE WHEN "n" = 1 THEN "base" ELSE "base" || '-' || left("id"::text, 8) END AS "slug"
  FROM (
    SELECT "id", "base", row_number() OVER (PARTITION BY "base" ORDER BY "created_at", "id") AS "n"
    FROM (
      SELECT "id", "created_at",
        coalesce(nullif(trim(both '-' from left(regexp_replace(lower("title"), '[^a-z0-9]+', '-', 'g'), 80)), ''), 'work') AS "base"
      FROM "videos"
    ) AS "based"
  ) AS "numbered"
) AS "named"
WHERE "videos"."id" = "named"."id";--> statement-breakpoint
ALTER TABLE "videos" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "video_slugs" ADD CONSTRAINT "video_slugs_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_slugs_video_idx" ON "video_slugs" USING btree ("video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_slug_idx" ON "videos" USING btree ("slug");
