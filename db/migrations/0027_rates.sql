-- Issue 30: exchange rates by day, one unit of a currency in the organization's base currency (exact decimal text).
CREATE TABLE `exchange_rates` (
	`org_seq` integer NOT NULL,
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`rate` text NOT NULL,
	`source` text NOT NULL,
	`set_at` text NOT NULL,
	PRIMARY KEY(`org_seq`, `currency`, `date`),
	FOREIGN KEY (`org_seq`) REFERENCES `organizations`(`seq`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
