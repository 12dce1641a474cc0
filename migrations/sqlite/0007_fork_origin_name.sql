-- The source's name as it was when the fork was made: a fork shows that, not the source's
-- current name read live (which would follow renames across teams after a share was revoked).
-- Existing forks keep the name their source has now.
-- Mirrored in ../postgres/0007_fork_origin_name.sql: keep both in step.
ALTER TABLE templates ADD COLUMN forked_name TEXT;
UPDATE templates SET forked_name = (SELECT src.name FROM templates src WHERE src.id = templates.forked_from)
    WHERE forked_from IS NOT NULL;
