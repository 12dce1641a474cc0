-- Jobs under their launchers, and runners that know their devices.
-- Mirrored in ../postgres/0009_launchers_devices.sql: keep both in step.

-- Who launched DeepSpeed (`deepspeed`, `hf-trainer`, `accelerate`): a column of the runs table.
ALTER TABLE jobs ADD COLUMN launcher TEXT NOT NULL DEFAULT 'deepspeed';
-- The dict the launcher handed to deepspeed.initialize, as JSON (reported by the runner).
ALTER TABLE jobs ADD COLUMN handed_config TEXT;
-- What a runner runs jobs on (GPUs from NVML, CPU cores, host memory), as JSON.
ALTER TABLE runners ADD COLUMN devices TEXT;
