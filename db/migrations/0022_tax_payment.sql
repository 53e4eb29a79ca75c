-- The bank row that paid a filed return (issue 28).
ALTER TABLE `tax_returns` ADD `payment_transaction_seq` integer REFERENCES transactions(seq);