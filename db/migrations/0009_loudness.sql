ALTER TABLE "videos" ADD COLUMN "loudness_integrated" real;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "loudness_range" real;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "loudness_true_peak" real;