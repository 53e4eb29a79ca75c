-- Issues 54 and 55 (SQLite: db/migrations/0051_practice_obligations_reminders.sql): HMRC's open obligations kept on the
-- organization's connection from the last fetch (the Practice screen's next HMRC return, read without calling HMRC),
-- and a reminder whose message failed kept with why (the Practice screen's reminders failing).
-- Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is frozen as released.

ALTER TABLE "reminders_sent" ADD COLUMN "failure" text;

ALTER TABLE "reminders_sent" ADD COLUMN "failed_at" text;

ALTER TABLE "hmrc_connections" ADD COLUMN "open_obligations" text;

ALTER TABLE "hmrc_connections" ADD COLUMN "obligations_fetched_at" text;
