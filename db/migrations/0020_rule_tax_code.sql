-- A rule may name the tax code it writes (issue 28).
ALTER TABLE `rules` ADD `tax_code` text;