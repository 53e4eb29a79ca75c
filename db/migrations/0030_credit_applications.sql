-- Issue 29: a contact's credit (an overpayment) applied to a later invoice or bill, on the day it is applied.
CREATE TABLE `credit_applications` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`document_seq` integer NOT NULL,
	`contact_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`date` text NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_seq`) REFERENCES `documents`(`seq`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_seq`) REFERENCES `counterparties`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `credit_applications_document` ON `credit_applications` (`document_seq`,`date`);--> statement-breakpoint
CREATE INDEX `credit_applications_contact` ON `credit_applications` (`contact_seq`,`kind`,`currency`,`date`);