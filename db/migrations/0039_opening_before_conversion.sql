ALTER TABLE `tax_returns` ADD `submission_receipt` text;--> statement-breakpoint
-- Issue 50: the opening entry of books taken over is dated the day before the conversion date, as Xero dates
-- conversion balances (an earlier build dated it the conversion date, so the revenue and expenses to date it may
-- carry fell in the first period's profit and loss). Each organization's entry is moved: its postings, its open
-- invoices' and bills' own postings (the first of each kind: a void's reversal keeps its date), the opening
-- balances of the money accounts it named (dated the conversion date) and the entry itself. The books' figures for
-- the first period change, so each move is said in the audit log, in the same transaction (hashed into the chain
-- when the file opens: core/sqlite/open.ts chainAuditLog).
INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary)
  SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1)
      || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
    j.org_seq, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'human', 'upgrade', 'Ledgerdesk upgrade', 'desk', 'opening.redated', 'journal', j.id,
    'The opening balances of the conversion date ' || j.date || ' are now dated ' || date(j.date, '-1 day')
      || ', the day before, as Xero dates conversion balances (issue 50): the revenue and expenses to date they carry are no longer in the first period''s profit and loss, and the balance sheet of '
      || date(j.date, '-1 day') || ' holds them.'
  FROM journals j WHERE j.kind = 'opening' ORDER BY j.org_seq;--> statement-breakpoint
UPDATE accounts SET opening_date = date(opening_date, '-1 day')
  WHERE opening_date IN (SELECT j.date FROM journals j WHERE j.kind = 'opening' AND j.org_seq = accounts.org_seq);--> statement-breakpoint
UPDATE postings SET date = date(date, '-1 day') WHERE seq IN (
  SELECT min(p.seq) FROM postings p JOIN journals j ON j.org_seq = p.org_seq AND j.kind = 'opening'
  WHERE p.document_seq IN (SELECT document_seq FROM postings WHERE kind = 'opening' AND document_seq IS NOT NULL)
    AND p.kind IN ('receivable', 'payable', 'opening') AND p.date = j.date
  GROUP BY p.document_seq, p.kind);--> statement-breakpoint
UPDATE postings SET date = date(date, '-1 day') WHERE journal_seq IN (SELECT seq FROM journals WHERE kind = 'opening');--> statement-breakpoint
UPDATE journals SET date = date(date, '-1 day') WHERE kind = 'opening';
