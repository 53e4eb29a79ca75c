-- Issue 55 (SQLite: db/migrations/0048_practice.sql): the Practice screen. Who answers for an organization's books
-- (its responsible bookkeeper and reviewer), how each person last left the screen (global, a person's own), and the
-- proposals counted per status, kind and proposer, kept by the proposals' statement triggers as every total is.
-- Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is frozen as released.

CREATE TABLE "practice_assignments" (
  "org_seq" bigint NOT NULL,
  "part" text NOT NULL,
  "user_seq" bigint NOT NULL,
  "assigned_at" text NOT NULL,
  PRIMARY KEY ("org_seq", "part")
);

CREATE TABLE "practice_choices" (
  "holder" text NOT NULL PRIMARY KEY,
  "choice" text NOT NULL,
  "updated_at" text NOT NULL
);

CREATE TABLE "proposal_kind_counts" (
  "org_seq" bigint NOT NULL,
  "status" text NOT NULL,
  "type" text NOT NULL,
  "proposed_by" text NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("org_seq", "status", "type", "proposed_by")
);

CREATE INDEX "practice_assignments_user" ON "practice_assignments" ("user_seq");

ALTER TABLE "practice_assignments" ADD CONSTRAINT "practice_assignments_org_seq_organizations_seq_fk" FOREIGN KEY ("org_seq") REFERENCES "organizations" ("seq") DEFERRABLE INITIALLY IMMEDIATE;

ALTER TABLE "practice_assignments" ADD CONSTRAINT "practice_assignments_user_seq_users_seq_fk" FOREIGN KEY ("user_seq") REFERENCES "users" ("seq") DEFERRABLE INITIALLY IMMEDIATE;

-- The proposals there are, counted once; from here on the statement triggers below keep the count. Every
-- organization's proposals are read by the migrating role, their tables' owner: the policy is unforced for the count
-- alone (within this migration's transaction), then forced again.
ALTER TABLE "proposals" NO FORCE ROW LEVEL SECURITY;
INSERT INTO proposal_kind_counts (org_seq, status, type, proposed_by, n)
  SELECT org_seq, status, type, proposed_by, count(*) FROM proposals GROUP BY org_seq, status, type, proposed_by;
ALTER TABLE "proposals" FORCE ROW LEVEL SECURITY;

-- The proposals' trigger functions, now keeping both totals (the triggers themselves stay as they are).
CREATE OR REPLACE FUNCTION totals_proposals_ai() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO proposal_status_counts AS t (org_seq, status, n)
    SELECT k0, k1, sum(n)
    FROM (SELECT org_seq AS k0, status AS k1, 1 AS n FROM new_rows) AS d
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (org_seq, status) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO proposal_kind_counts AS t (org_seq, status, type, proposed_by, n)
    SELECT k0, k1, k2, k3, sum(n)
    FROM (SELECT org_seq AS k0, status AS k1, type AS k2, proposed_by AS k3, 1 AS n FROM new_rows) AS d
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION totals_proposals_ad() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO proposal_status_counts AS t (org_seq, status, n)
    SELECT k0, k1, sum(n)
    FROM (SELECT org_seq AS k0, status AS k1, -(1) AS n FROM old_rows) AS d
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (org_seq, status) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO proposal_kind_counts AS t (org_seq, status, type, proposed_by, n)
    SELECT k0, k1, k2, k3, sum(n)
    FROM (SELECT org_seq AS k0, status AS k1, type AS k2, proposed_by AS k3, -(1) AS n FROM old_rows) AS d
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION totals_proposals_au() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO proposal_status_counts AS t (org_seq, status, n)
    SELECT k0, k1, sum(n)
    FROM (SELECT org_seq AS k0, status AS k1, -(1) AS n FROM old_rows
      UNION ALL SELECT org_seq AS k0, status AS k1, 1 AS n FROM new_rows) AS d
    GROUP BY 1, 2
    HAVING sum(n) <> 0
    ORDER BY 1, 2
    ON CONFLICT (org_seq, status) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO proposal_kind_counts AS t (org_seq, status, type, proposed_by, n)
    SELECT k0, k1, k2, k3, sum(n)
    FROM (SELECT org_seq AS k0, status AS k1, type AS k2, proposed_by AS k3, -(1) AS n FROM old_rows
      UNION ALL SELECT org_seq AS k0, status AS k1, type AS k2, proposed_by AS k3, 1 AS n FROM new_rows) AS d
    GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON "practice_assignments", "proposal_kind_counts" TO ledgerdesk_app;
-- Global (a person's own, across organizations, as users are): no row-level security.
GRANT SELECT, INSERT, UPDATE, DELETE ON "practice_choices" TO ledgerdesk_app;

ALTER TABLE "practice_assignments" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "practice_assignments" FORCE ROW LEVEL SECURITY;
CREATE POLICY "practice_assignments_org" ON "practice_assignments" USING ("org_seq" = ldk_org()) WITH CHECK ("org_seq" = ldk_org());

ALTER TABLE "proposal_kind_counts" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "proposal_kind_counts" FORCE ROW LEVEL SECURITY;
CREATE POLICY "proposal_kind_counts_org" ON "proposal_kind_counts" USING ("org_seq" = ldk_org()) WITH CHECK ("org_seq" = ldk_org());
