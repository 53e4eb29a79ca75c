-- Issue 42: what a split row was before its split (its lines, as JSON), put back by unsplit. Splits made before have none: unsplit asks.
CREATE TABLE `split_origins` (
	`transaction_seq` integer PRIMARY KEY NOT NULL,
	`lines` text NOT NULL,
	FOREIGN KEY (`transaction_seq`) REFERENCES `transactions`(`seq`) ON UPDATE no action ON DELETE cascade
);
