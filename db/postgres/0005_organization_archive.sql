-- Issue 50 (SQLite: db/migrations/0042_organization_archive.sql): an organization archived by `org copy --move`
-- once its copy elsewhere is verified: out of the list, its books readable by its slug, every change refused.
-- Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is frozen as released.

ALTER TABLE "organizations" ADD COLUMN "archived_at" text;
