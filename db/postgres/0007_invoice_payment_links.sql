-- Issue 53 (SQLite: db/migrations/0044_invoice_payment_links.sql): an invoice's Stripe payment link, its id and address
-- while it takes money, when it stopped taking money, and the webhook event that paid the invoice (remembered so a
-- repeated event pays nothing twice). Written by hand in the generator's style (scripts/postgres-schema.ts): 0000 is
-- frozen as released.

ALTER TABLE "documents" ADD COLUMN "payment_link_id" text;

ALTER TABLE "documents" ADD COLUMN "payment_link_url" text;

ALTER TABLE "documents" ADD COLUMN "payment_link_closed_at" text;

ALTER TABLE "documents" ADD COLUMN "payment_link_event" text;
