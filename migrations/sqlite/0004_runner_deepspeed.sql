-- The DeepSpeed release a runner's Python imports, reported when it registers ('' when unknown):
-- jobs that may go to it are validated for that release.
-- Mirrored in ../postgres/0004_runner_deepspeed.sql: keep both in step.
ALTER TABLE runners ADD COLUMN deepspeed TEXT NOT NULL DEFAULT '';
