-- Sweeps: a grid of configs over one template version, each point run as a labelled job.
-- Mirrored in ../postgres/0010_sweeps.sql: keep both in step.

-- `spec` holds what the points share, as JSON: workload, gpus, nodes, max_steps, grid,
-- keep_global_batch, early_stop, runners. A sweep's state follows from its points' jobs;
-- `cancelled_at` is set when someone cancels it.
CREATE TABLE sweeps (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    template_id  BIGINT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
    version      BIGINT NOT NULL,
    created_by   BIGINT NOT NULL REFERENCES users(id),
    name         TEXT   NOT NULL DEFAULT '',
    spec         TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    cancelled_at BIGINT
);
CREATE INDEX sweeps_template ON sweeps(template_id, id);

-- One row per point of the grid, in grid order. A pruned point has no job and its reason;
-- a point stopped early keeps its job and gets the reason (JSON {"en", "zh"}).
CREATE TABLE sweep_points (
    sweep_id       BIGINT NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
    idx            BIGINT NOT NULL,
    point_values   TEXT   NOT NULL,
    config_text    TEXT,
    estimate_bytes BIGINT,
    job_id         BIGINT REFERENCES jobs(id) ON DELETE SET NULL,
    runner         TEXT,
    reason         TEXT,
    PRIMARY KEY (sweep_id, idx)
);
CREATE INDEX sweep_points_job ON sweep_points(job_id);
