-- Written by hand (drizzle-kit does not model triggers): the activity log stays append-only for
-- every statement but its retention. A DELETE passes only in a transaction that set
-- `studio.activity_retention` to `on` (src/activity/log.ts's prune); UPDATE never does.
CREATE OR REPLACE FUNCTION "activity_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' AND current_setting('studio.activity_retention', true) = 'on' THEN
		RETURN OLD;
	END IF;
	RAISE EXCEPTION 'activity_log is append-only: % is not allowed', TG_OP;
END
$$;
