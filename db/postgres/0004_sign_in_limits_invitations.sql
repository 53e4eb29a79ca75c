-- Issue 51: sign-in attempts counted before they are checked, by the address typed and by a person's second-factor
-- codes (sign_in_limits replaces sign_in_failures); the second-factor codes a pending session tried; an invitation of
-- a person who already signs in to join an organization (the role and the name the owner gave wait until accepted).
-- Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is frozen as released.

DROP TABLE "sign_in_failures";

CREATE TABLE "sign_in_limits" (
  "key" text NOT NULL PRIMARY KEY,
  "count" bigint NOT NULL,
  "window_start" bigint NOT NULL,
  "locked_until" bigint NOT NULL DEFAULT 0
);

ALTER TABLE "desk_sessions" ADD COLUMN "totp_tries" bigint NOT NULL DEFAULT 0;

ALTER TABLE "invitations" ADD COLUMN "org_seq" bigint;

ALTER TABLE "invitations" ADD COLUMN "role" text;

ALTER TABLE "invitations" ADD COLUMN "name" text;

CREATE INDEX "invitations_org" ON "invitations" ("org_seq");

ALTER TABLE "invitations" ADD CONSTRAINT "invitations_org_seq_organizations_seq_fk" FOREIGN KEY ("org_seq") REFERENCES "organizations" ("seq") DEFERRABLE INITIALLY IMMEDIATE;

-- Global (found before an organization is chosen, as users and invitations are): no row-level security.
GRANT SELECT, INSERT, UPDATE, DELETE ON "sign_in_limits" TO ledgerdesk_app;
