ALTER TABLE "videos" ADD COLUMN "position" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "videos_position_idx" ON "videos" USING btree ("position","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Existing videos keep the order visitors saw: newest first.
UPDATE "videos" SET "position" = "ordered"."n"
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at" DESC, "id" DESC) AS "n" FROM "videos") AS "ordered"
WHERE "videos"."id" = "ordered"."id";
