-- Generated table, then custom SQL: transactions per (organization, description
-- shape), the shape being the description with each digit 0-9 written '#'.
-- Bank descriptions differ mostly in their numbers, so an organization has few
-- shapes, and a description filter whose needle has no digit and no '#' counts
-- its matches over the shapes (a needle without digits matches a description
-- exactly where it matches its shape). Kept by triggers in the same transaction
-- as every insert, update and delete; bulk loads maintain it set-wise (bulk.ts).
CREATE TABLE `description_shapes` (
	`seq` integer PRIMARY KEY NOT NULL,
	`org_seq` integer NOT NULL,
	`shape` text NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `description_shapes_org_shape` ON `description_shapes` (`org_seq`,`shape`);
--> statement-breakpoint
CREATE VIRTUAL TABLE description_shapes_fts USING fts5(shape, content='', tokenize='trigram case_sensitive 0');
--> statement-breakpoint
CREATE TRIGGER description_shapes_ai AFTER INSERT ON description_shapes BEGIN
  INSERT INTO description_shapes_fts (rowid, shape) VALUES (NEW.seq, NEW.shape);
END;
--> statement-breakpoint
INSERT INTO description_shapes (org_seq, shape, n)
  SELECT org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), count(*) FROM transactions GROUP BY 1, 2 ORDER BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER transactions_shapes_ai AFTER INSERT ON transactions BEGIN
  INSERT INTO description_shapes (org_seq, shape, n) VALUES (NEW.org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(NEW.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), 1)
    ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER transactions_shapes_ad AFTER DELETE ON transactions BEGIN
  UPDATE description_shapes SET n = n - 1 WHERE org_seq = OLD.org_seq AND shape = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(OLD.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#');
END;
--> statement-breakpoint
CREATE TRIGGER transactions_shapes_au AFTER UPDATE OF org_seq, description ON transactions BEGIN
  UPDATE description_shapes SET n = n - 1 WHERE org_seq = OLD.org_seq AND shape = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(OLD.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#');
  INSERT INTO description_shapes (org_seq, shape, n) VALUES (NEW.org_seq, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(NEW.description, '0', '#'), '1', '#'), '2', '#'), '3', '#'), '4', '#'), '5', '#'), '6', '#'), '7', '#'), '8', '#'), '9', '#'), 1)
    ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + 1;
END;
