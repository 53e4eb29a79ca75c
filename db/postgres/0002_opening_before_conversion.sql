-- Issue 50 (SQLite: db/migrations/0039_opening_before_conversion.sql).

-- The tax office's receipt of a return's electronic submission (JSON; an HMRC submission comes in a later issue): a
-- filing recorded by mistake is undone only while it has none.
ALTER TABLE "tax_returns" ADD COLUMN "submission_receipt" text;

-- The opening entry of books taken over is dated the day before the conversion date, as Xero dates conversion
-- balances (an earlier build dated it the conversion date, so the revenue and expenses to date it may carry fell in
-- the first period's profit and loss). Each organization's entry is moved: its postings, its open invoices' and
-- bills' own postings (the first of each kind: a void's reversal keeps its date), the opening balances of the money
-- accounts it named (dated the conversion date) and the entry itself; and the move is said in the audit log, hashed
-- into the organization's chain as audit.ts hashes an entry. Row-level security binds the role migrating (it owns
-- the tables, which FORCE it): each organization's rows are reached with the connection set to it.
DO $$
DECLARE
  org bigint;
  j record;
  before text;
  entry_id text;
  at text;
  summary text;
  prev text;
  rest text;
BEGIN
  PERFORM set_config('app.org', 'all', true);
  FOR org IN SELECT seq FROM organizations ORDER BY seq LOOP
    PERFORM set_config('app.org', org::text, true);
    FOR j IN SELECT seq, id, date FROM journals WHERE org_seq = org AND kind = 'opening' LOOP
      before := to_char(j.date::date - 1, 'YYYY-MM-DD');
      UPDATE accounts SET opening_date = before WHERE org_seq = org AND opening_date = j.date;
      UPDATE postings SET date = before WHERE org_seq = org AND seq IN (
        SELECT min(p.seq) FROM postings p
        WHERE p.org_seq = org AND p.document_seq IN (SELECT document_seq FROM postings WHERE org_seq = org AND kind = 'opening' AND document_seq IS NOT NULL)
          AND p.kind IN ('receivable', 'payable', 'opening') AND p.date = j.date
        GROUP BY p.document_seq, p.kind);
      UPDATE postings SET date = before WHERE org_seq = org AND journal_seq = j.seq;
      UPDATE journals SET date = before WHERE org_seq = org AND seq = j.seq;
      entry_id := gen_random_uuid()::text;
      at := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      summary := 'The opening balances of the conversion date ' || j.date || ' are now dated ' || before
        || ', the day before, as Xero dates conversion balances (issue 50): the revenue and expenses to date they carry are no longer in the first period''s profit and loss, and the balance sheet of '
        || before || ' holds them.';
      prev := coalesce((SELECT hash FROM audit_log WHERE org_seq = org ORDER BY seq DESC LIMIT 1), '');
      -- What audit.ts hashes: the JSON array [prev, id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary].
      rest := concat_ws(',', to_json(entry_id)::text, org::text, to_json(at)::text, '"human"', '"upgrade"', '"Ledgerdesk upgrade"', '"desk"', '"opening.redated"',
        '"journal"', to_json(j.id)::text, to_json(summary)::text) || ']';
      INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary, prev_hash, hash)
        VALUES (entry_id, org, at, 'human', 'upgrade', 'Ledgerdesk upgrade', 'desk', 'opening.redated', 'journal', j.id, summary, prev,
          encode(sha256(convert_to('["' || prev || '",' || rest, 'UTF8')), 'hex'));
    END LOOP;
  END LOOP;
END $$;
