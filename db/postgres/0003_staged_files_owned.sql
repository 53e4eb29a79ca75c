-- Staged files belong to an organization and the person who staged them (issue 51): org_seq leads their keys and
-- row-level security is FORCEd on them, as on every table of an organization's data; the uploader is kept for the
-- quotas. Written by hand (0000 is frozen as released), as scripts/postgres-schema.ts generates these tables now.
-- A staged file is kept a day at most: the two tables are made again, empty.
DROP TABLE "staged_chunks";

DROP TABLE "staged_files";

CREATE TABLE "staged_chunks" (
  "org_seq" bigint NOT NULL,
  "file_id" text NOT NULL,
  "n" bigint NOT NULL,
  "bytes" bytea NOT NULL,
  PRIMARY KEY ("org_seq", "file_id", "n")
);

CREATE TABLE "staged_files" (
  "id" text NOT NULL,
  "org_seq" bigint NOT NULL,
  "kind" text NOT NULL,
  "name" text NOT NULL,
  "size_bytes" bigint NOT NULL,
  "created_at" bigint NOT NULL,
  "finished_at" bigint,
  "staged_by" bigint,
  PRIMARY KEY ("org_seq", "id")
);

CREATE INDEX "staged_files_org_created" ON "staged_files" ("org_seq", "created_at");

ALTER TABLE "staged_chunks" ADD CONSTRAINT "staged_chunks_org_seq_organizations_seq_fk" FOREIGN KEY ("org_seq") REFERENCES "organizations" ("seq") DEFERRABLE INITIALLY IMMEDIATE;

ALTER TABLE "staged_chunks" ADD CONSTRAINT "staged_chunks_file_id_staged_files_id_fk" FOREIGN KEY ("org_seq", "file_id") REFERENCES "staged_files" ("org_seq", "id") ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE;

ALTER TABLE "staged_files" ADD CONSTRAINT "staged_files_org_seq_organizations_seq_fk" FOREIGN KEY ("org_seq") REFERENCES "organizations" ("seq") DEFERRABLE INITIALLY IMMEDIATE;

ALTER TABLE "staged_files" ADD CONSTRAINT "staged_files_staged_by_users_seq_fk" FOREIGN KEY ("staged_by") REFERENCES "users" ("seq") DEFERRABLE INITIALLY IMMEDIATE;

GRANT SELECT, INSERT, UPDATE, DELETE ON "staged_chunks", "staged_files" TO ledgerdesk_app;

ALTER TABLE "staged_chunks" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "staged_chunks" FORCE ROW LEVEL SECURITY;
CREATE POLICY "staged_chunks_org" ON "staged_chunks" USING ("org_seq" = ldk_org()) WITH CHECK ("org_seq" = ldk_org());

ALTER TABLE "staged_files" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "staged_files" FORCE ROW LEVEL SECURITY;
CREATE POLICY "staged_files_org" ON "staged_files" USING ("org_seq" = ldk_org()) WITH CHECK ("org_seq" = ldk_org());
