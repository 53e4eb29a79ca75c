-- Issue 50 (SQLite: db/migrations/0043_chart_templates.sql): the chart template an organization was started with
-- (its default codes), and a category's part in the books: the retained earnings account, at most one per organization.
-- Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is frozen as released.

ALTER TABLE "organizations" ADD COLUMN "chart_template" text;

ALTER TABLE "categories" ADD COLUMN "role" text;

CREATE UNIQUE INDEX "categories_org_role" ON "categories" ("org_seq", "role") WHERE "categories"."role" IS NOT NULL;
