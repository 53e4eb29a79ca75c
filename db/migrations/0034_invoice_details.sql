-- Issue 43: what invoices print (the organization's registration, bank details, terms, date style, logo; a contact's country).
CREATE TABLE `organization_logos` (
	`org_seq` integer PRIMARY KEY NOT NULL,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`sha256` text NOT NULL,
	`bytes` blob NOT NULL,
	`set_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `counterparties` ADD `country` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `legal_name` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `country` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `company_number` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `registered_in` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `registered_office` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `bank_name` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `bank_account_name` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `sort_code` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `account_number` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `iban` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `bic` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `payment_terms` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `date_style` text;--> statement-breakpoint
-- Invoices read the organization's payment details when printed: a copy made at creation that still says what the
-- organization says is dropped (the document then follows the organization); one that differs stays, as the document's own.
UPDATE `documents` SET `payment_instructions` = NULL
WHERE `payment_instructions` IS NOT NULL
  AND `payment_instructions` = (SELECT o.`payment_instructions` FROM `organizations` o WHERE o.`seq` = `documents`.`org_seq`);
