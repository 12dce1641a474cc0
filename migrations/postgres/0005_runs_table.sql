-- The runs table (`/jobs`): what a job ran and how it went, as columns the list can sort and
-- filter on in SQL, plus what people write on a run (name, note, tags).
-- Mirrored in ../sqlite/0005_runs_table.sql: keep both in step.

-- Written by people (PATCH /jobs/{id}). Tags are kept as ",a,b," so one tag matches as a
-- substring ",a," whatever else the list holds.
ALTER TABLE jobs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN tags TEXT NOT NULL DEFAULT ',';

-- What was run, read from the config as run at submission (the release is the runner's once one
-- claims it).
ALTER TABLE jobs ADD COLUMN deepspeed TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN zero_stage BIGINT;
ALTER TABLE jobs ADD COLUMN run_precision TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN offload TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN micro_batch BIGINT;

-- How it went, from its metric series when it ended (summarized = 1 once written; jobs that
-- ended before this migration are summarized at the next start).
ALTER TABLE jobs ADD COLUMN final_loss DOUBLE PRECISION;
ALTER TABLE jobs ADD COLUMN best_loss DOUBLE PRECISION;
ALTER TABLE jobs ADD COLUMN samples_per_sec DOUBLE PRECISION;
ALTER TABLE jobs ADD COLUMN peak_memory_mb DOUBLE PRECISION;
ALTER TABLE jobs ADD COLUMN summarized BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_created ON jobs(created_at);
