CREATE TABLE "review_link_opens" (
	"link_id" uuid NOT NULL,
	"day" text NOT NULL,
	"address_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"note" text,
	"password_hash" text,
	"expires_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone,
	"open_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_link_opens" ADD CONSTRAINT "review_link_opens_link_id_review_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."review_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_link_opens_idx" ON "review_link_opens" USING btree ("link_id","day","address_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "review_links_token_idx" ON "review_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "review_links_video_idx" ON "review_links" USING btree ("video_id","created_at" DESC NULLS LAST);