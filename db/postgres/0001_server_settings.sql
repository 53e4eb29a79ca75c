-- Issue 50 (SQLite: db/migrations/0038_server_settings.sql): the server's own settings, today its public address,
-- kept once `serve --public-url` named it so invitation links printed by a command point there.
-- Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is frozen as released.

CREATE TABLE "server_settings" (
  "name" text NOT NULL PRIMARY KEY,
  "value" text NOT NULL,
  "updated_at" text NOT NULL
);

-- Global (read before an organization is chosen, as users are): no row-level security.
GRANT SELECT, INSERT, UPDATE, DELETE ON "server_settings" TO ledgerdesk_app;
