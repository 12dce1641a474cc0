//! The server's figures for Prometheus (`GET /metrics`, text format 0.0.4, written by the
//! `prometheus` crate): what this process counted since it started (HTTP requests by route
//! and status with their latency, sign-in refusals) and what is true now, read at each scrape
//! (jobs by state and the queue, runners online and their GPUs, live streams, sweep points,
//! the database pool). Each replica exports its own; the database's counts are the same in
//! every replica's answer.
//!
//! Labels never carry a user's or a team's name: routes are the router's patterns
//! (`/api/v1/jobs/{id}`), runners their operator-given names.

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
    TextEncoder,
};

/// Why a sign-in was refused (the `reason` label of `ds_studio_signin_refusals_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Too many attempts from the address or for the name.
    RateLimited,
    /// A wrong name or password, or a used or expired sign-in link.
    WrongCredentials,
    /// The account is disabled.
    Disabled,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::RateLimited => "rate_limited",
            Refusal::WrongCredentials => "wrong_credentials",
            Refusal::Disabled => "disabled",
        }
    }
}

/// What is true at a scrape, gathered by the caller (the store, the limits, the runners).
#[derive(Debug, Clone, Default)]
pub struct Now {
    pub jobs_by_state: Vec<(String, i64)>,
    pub sweep_points_by_state: Vec<(String, i64)>,
    /// (runner name, online, GPUs it may use).
    pub runners: Vec<(String, bool, usize)>,
    pub open_streams: usize,
    pub pool_size: u32,
    pub pool_idle: usize,
    pub pool_max: u32,
}

/// Every metric of one server process.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    refusals: IntCounterVec,
    jobs: IntGaugeVec,
    queue: IntGauge,
    runners: IntGaugeVec,
    runner_gpus: IntGaugeVec,
    streams: IntGauge,
    points: IntGaugeVec,
    pool: IntGaugeVec,
    pool_max: IntGauge,
}

/// Every state of a sweep point, so each reads 0 before the first sweep.
const POINT_STATES: [&str; 8] = [
    "pending",
    "pruned",
    "queued",
    "running",
    "succeeded",
    "failed",
    "cancelled",
    "lost",
];

/// Every job state, so a state with no job reads 0 instead of vanishing.
const JOB_STATES: [&str; 6] = [
    "queued",
    "running",
    "succeeded",
    "failed",
    "cancelled",
    "lost",
];

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let ns = |o: Opts| o.namespace("ds_studio");
        let requests = IntCounterVec::new(
            ns(Opts::new(
                "http_requests_total",
                "HTTP requests answered, by route pattern, method and status",
            )),
            &["route", "method", "status"],
        )
        .expect("valid metric");
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "Time to answer an HTTP request (to its headers; a stream's body not included), by route pattern",
            )
            .namespace("ds_studio"),
            &["route"],
        )
        .expect("valid metric");
        let refusals = IntCounterVec::new(
            ns(Opts::new(
                "signin_refusals_total",
                "Password sign-ins refused, by reason",
            )),
            &["reason"],
        )
        .expect("valid metric");
        let jobs = IntGaugeVec::new(ns(Opts::new("jobs", "Jobs by state")), &["state"])
            .expect("valid metric");
        let queue = IntGauge::with_opts(ns(Opts::new(
            "job_queue_depth",
            "Jobs queued and not yet claimed by a runner",
        )))
        .expect("valid metric");
        let runners = IntGaugeVec::new(
            ns(Opts::new(
                "runners",
                "Registered runners, online (a heartbeat in the last 30 s) or not",
            )),
            &["state"],
        )
        .expect("valid metric");
        let runner_gpus = IntGaugeVec::new(
            ns(Opts::new("runner_gpus", "GPUs of each online runner")),
            &["runner"],
        )
        .expect("valid metric");
        let streams = IntGauge::with_opts(ns(Opts::new(
            "sse_streams",
            "Live event streams (a job page or `jobs watch`) open on this replica",
        )))
        .expect("valid metric");
        let points = IntGaugeVec::new(
            ns(Opts::new(
                "sweep_points",
                "Sweep points by their job's state (pruned: left out by the estimate; pending: no job yet)",
            )),
            &["state"],
        )
        .expect("valid metric");
        let pool = IntGaugeVec::new(
            ns(Opts::new(
                "db_pool_connections",
                "Database connections of this replica's pool, idle or in use",
            )),
            &["state"],
        )
        .expect("valid metric");
        let pool_max = IntGauge::with_opts(ns(Opts::new(
            "db_pool_max_connections",
            "The most connections this replica's pool opens",
        )))
        .expect("valid metric");
        for c in [
            Box::new(requests.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(latency.clone()),
            Box::new(refusals.clone()),
            Box::new(jobs.clone()),
            Box::new(queue.clone()),
            Box::new(runners.clone()),
            Box::new(runner_gpus.clone()),
            Box::new(streams.clone()),
            Box::new(points.clone()),
            Box::new(pool.clone()),
            Box::new(pool_max.clone()),
        ] {
            registry
                .register(c)
                .expect("each metric is registered once");
        }
        for r in [
            Refusal::RateLimited,
            Refusal::WrongCredentials,
            Refusal::Disabled,
        ] {
            refusals.with_label_values(&[r.label()]);
        }
        Metrics {
            registry,
            requests,
            latency,
            refusals,
            jobs,
            queue,
            runners,
            runner_gpus,
            streams,
            points,
            pool,
            pool_max,
        }
    }

    /// One answered request: `route` is the router's pattern, or `other` for a path no
    /// route matched (the frontend's files and unknown paths).
    pub fn observe_request(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.requests
            .with_label_values(&[route, method, status_label(status)])
            .inc();
        self.latency.with_label_values(&[route]).observe(seconds);
    }

    pub fn refused_signin(&self, why: Refusal) {
        self.refusals.with_label_values(&[why.label()]).inc();
    }

    /// The text a scrape answers, with the gauges set from `now`.
    pub fn render(&self, now: &Now) -> String {
        self.jobs.reset();
        for s in JOB_STATES {
            self.jobs.with_label_values(&[s]).set(0);
        }
        for (state, n) in &now.jobs_by_state {
            self.jobs.with_label_values(&[state]).set(*n);
        }
        let queued = now
            .jobs_by_state
            .iter()
            .find(|(s, _)| s == "queued")
            .map_or(0, |(_, n)| *n);
        self.queue.set(queued);
        self.runners.reset();
        self.runner_gpus.reset();
        let online = now.runners.iter().filter(|r| r.1).count();
        self.runners
            .with_label_values(&["online"])
            .set(online as i64);
        self.runners
            .with_label_values(&["offline"])
            .set((now.runners.len() - online) as i64);
        for (name, on, gpus) in &now.runners {
            if *on {
                self.runner_gpus
                    .with_label_values(&[name])
                    .set(*gpus as i64);
            }
        }
        self.streams.set(now.open_streams as i64);
        self.points.reset();
        for s in POINT_STATES {
            self.points.with_label_values(&[s]).set(0);
        }
        for (state, n) in &now.sweep_points_by_state {
            self.points.with_label_values(&[state]).set(*n);
        }
        self.pool.reset();
        let idle = now.pool_idle as i64;
        self.pool.with_label_values(&["idle"]).set(idle);
        self.pool
            .with_label_values(&["in_use"])
            .set((now.pool_size as i64 - idle).max(0));
        self.pool_max.set(now.pool_max as i64);
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut out)
            .expect("the text encoder writes to memory");
        String::from_utf8(out).expect("the text format is UTF-8")
    }
}

/// A status as its label, without allocating for the common ones.
fn status_label(status: u16) -> &'static str {
    match status {
        200 => "200",
        201 => "201",
        204 => "204",
        304 => "304",
        400 => "400",
        401 => "401",
        403 => "403",
        404 => "404",
        409 => "409",
        413 => "413",
        422 => "422",
        429 => "429",
        500 => "500",
        503 => "503",
        s if s < 200 => "1xx",
        s if s < 300 => "2xx",
        s if s < 400 => "3xx",
        s if s < 500 => "4xx",
        _ => "5xx",
    }
}

/// The content type of the text format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scrape_has_every_family_with_its_figures() {
        let m = Metrics::new();
        m.observe_request("/api/v1/jobs/{id}", "GET", 200, 0.012);
        m.observe_request("/api/v1/jobs/{id}", "GET", 404, 0.002);
        m.refused_signin(Refusal::WrongCredentials);
        let text = m.render(&Now {
            jobs_by_state: vec![("queued".into(), 3), ("succeeded".into(), 7)],
            sweep_points_by_state: vec![("pruned".into(), 2)],
            runners: vec![("gpu-a".into(), true, 8), ("gpu-b".into(), false, 4)],
            open_streams: 5,
            pool_size: 4,
            pool_idle: 3,
            pool_max: 8,
        });
        for line in [
            r#"ds_studio_http_requests_total{method="GET",route="/api/v1/jobs/{id}",status="404"} 1"#,
            r#"ds_studio_http_request_duration_seconds_count{route="/api/v1/jobs/{id}"} 2"#,
            r#"ds_studio_signin_refusals_total{reason="wrong_credentials"} 1"#,
            r#"ds_studio_signin_refusals_total{reason="rate_limited"} 0"#,
            r#"ds_studio_jobs{state="queued"} 3"#,
            r#"ds_studio_jobs{state="running"} 0"#,
            "ds_studio_job_queue_depth 3",
            r#"ds_studio_runners{state="online"} 1"#,
            r#"ds_studio_runners{state="offline"} 1"#,
            r#"ds_studio_runner_gpus{runner="gpu-a"} 8"#,
            "ds_studio_sse_streams 5",
            r#"ds_studio_sweep_points{state="pruned"} 2"#,
            r#"ds_studio_db_pool_connections{state="in_use"} 1"#,
            "ds_studio_db_pool_max_connections 8",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "{line} missing from\n{text}"
            );
        }
        assert!(
            !text.contains("gpu-b\""),
            "an offline runner has no GPU line"
        );
    }

    #[test]
    fn gauges_follow_the_latest_scrape() {
        let m = Metrics::new();
        let first = Now {
            runners: vec![("gone".into(), true, 2)],
            ..Now::default()
        };
        assert!(m.render(&first).contains(r#"runner="gone""#));
        let text = m.render(&Now::default());
        assert!(!text.contains(r#"runner="gone""#), "{text}");
        assert!(text.contains(r#"ds_studio_jobs{state="queued"} 0"#));
        assert!(
            text.contains(r#"ds_studio_sweep_points{state="pruned"} 0"#),
            "{text}"
        );
    }
}
