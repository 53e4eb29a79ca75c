ALTER TABLE `proposals` ADD `channel` text;--> statement-breakpoint
-- Custom SQL: the channel of earlier proposals, from the audit entry that recorded each.
UPDATE proposals SET channel = a.channel
  FROM (SELECT target_id, channel FROM audit_log WHERE action = 'proposal.created' AND target_type = 'proposal') AS a
  WHERE a.target_id = proposals.id;
