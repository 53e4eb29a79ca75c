-- Generated table, then custom SQL: how many description shapes each
-- organization has, kept by a trigger. A description filter counts over the
-- shapes only where they are much fewer than the rows (where most descriptions
-- are unique text, counting the rows is cheaper).
CREATE TABLE `description_shape_totals` (
	`org_seq` integer PRIMARY KEY NOT NULL,
	`shapes` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO description_shape_totals (org_seq, shapes) SELECT org_seq, count(*) FROM description_shapes GROUP BY org_seq;
--> statement-breakpoint
CREATE TRIGGER description_shapes_ai_totals AFTER INSERT ON description_shapes BEGIN
  INSERT INTO description_shape_totals (org_seq, shapes) VALUES (NEW.org_seq, 1)
    ON CONFLICT (org_seq) DO UPDATE SET shapes = shapes + 1;
END;
