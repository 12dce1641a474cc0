-- Where a fork came from: the template and version it was forked from, for the editor's
-- "forked from NAME@vN" link. No foreign key: a fork outlives its source (the link then says the
-- source is gone).
-- Mirrored in ../sqlite/0006_template_forks.sql: keep both in step.
ALTER TABLE templates ADD COLUMN forked_from BIGINT;
ALTER TABLE templates ADD COLUMN forked_version BIGINT;
