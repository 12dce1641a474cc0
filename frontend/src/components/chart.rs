//! A line chart in SVG for job metrics: one or more series on shared axes, with nice ticks and
//! grid lines, values on hover (and with the arrow keys when focused), and optional smoothing
//! (an exponential moving average drawn over the faint raw line).
//!
//! Live charts append: points that arrive are drawn as a new `<polyline>` chunk joined to the
//! last one, and what is on screen is left as it is. Only when a point falls outside the frame
//! (a live frame leaves headroom: up to the run's expected end on x, 10% on y) or the series
//! change otherwise is everything redrawn. The geometry ([`Frame`], [`nice_ticks`], [`ema`],
//! [`nearest`], [`Drawing`]) is plain Rust, tested natively and with wasm-bindgen-test.

use leptos::prelude::*;
use std::sync::Arc;

/// Chart size in SVG units (the element scales to its container).
pub const WIDTH: f64 = 480.0;
pub const HEIGHT: f64 = 180.0;
const PAD_LEFT: f64 = 56.0;
const PAD_RIGHT: f64 = 8.0;
const PAD_TOP: f64 = 8.0;
const PAD_BOTTOM: f64 = 22.0;
/// A redraw merges the chunks once there are this many.
const MAX_CHUNKS: usize = 120;

/// Colours of the series, in order.
pub const COLOURS: [&str; 6] = [
    "#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2",
];

/// Named series of `(x, value)` points, as a chart draws them.
pub type NamedSeries = Vec<(String, Vec<(i64, f64)>)>;

/// The data ranges a chart maps onto its area.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub x: (f64, f64),
    pub y: (f64, f64),
}

fn range(vals: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (lo <= hi).then_some((lo, hi))
}

impl Frame {
    /// The frame of `series`. A live chart leaves room to grow: x up to `x_end` (where the run
    /// is expected to end) or a quarter more, y a tenth either way.
    pub fn fit(series: &[&[(i64, f64)]], live: bool, x_end: Option<f64>) -> Option<Frame> {
        let xs = range(series.iter().flat_map(|s| s.iter().map(|p| p.0 as f64)))?;
        let ys = range(
            series
                .iter()
                .flat_map(|s| s.iter().filter(|p| p.1.is_finite()).map(|p| p.1)),
        )?;
        let mut x = xs;
        if live {
            let grow = x_end
                .filter(|e| *e > xs.1)
                .unwrap_or(xs.1 + (xs.1 - xs.0) * 0.25);
            x.1 = grow.max(xs.1);
        }
        if x.1 <= x.0 {
            x = (x.0 - 1.0, x.0 + 1.0);
        }
        let mut y = ys;
        if y.1 <= y.0 {
            // A flat line sits in the middle of a small band.
            let pad = if y.0 == 0.0 { 1.0 } else { y.0.abs() * 0.1 };
            y = (y.0 - pad, y.1 + pad);
        } else if live {
            let pad = (y.1 - y.0) * 0.1;
            y = (y.0 - pad, y.1 + pad);
        }
        // Out to the round values around the data, so the lowest and highest points sit on or
        // inside labelled ticks (points at 122 and 126 were drawn on an axis of 123 to 125).
        if let Some(step) = nice_step(y.0, y.1, Y_TICKS) {
            y = ((y.0 / step).floor() * step, (y.1 / step).ceil() * step);
        }
        // Memory, samples/s and the like are never negative: the axis does not go below 0
        // for them (a job's memory chart read down to -10000).
        if ys.0 >= 0.0 && y.0 < 0.0 {
            y.0 = 0.0;
        }
        Some(Frame { x, y })
    }

    /// Whether every point lies inside the frame.
    pub fn holds(&self, points: &[(i64, f64)]) -> bool {
        points.iter().all(|p| {
            let x = p.0 as f64;
            x >= self.x.0
                && x <= self.x.1
                && (!p.1.is_finite() || (p.1 >= self.y.0 && p.1 <= self.y.1))
        })
    }

    fn inner() -> (f64, f64) {
        (WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM)
    }

    /// SVG x of a data x.
    pub fn sx(&self, x: f64) -> f64 {
        PAD_LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * Frame::inner().0
    }

    /// SVG y of a value.
    pub fn sy(&self, y: f64) -> f64 {
        PAD_TOP + Frame::inner().1 - (y - self.y.0) / (self.y.1 - self.y.0) * Frame::inner().1
    }

    /// The data x under an SVG x, when it is inside the plot area.
    pub fn x_at(&self, svg_x: f64) -> Option<f64> {
        let w = Frame::inner().0;
        (PAD_LEFT..=PAD_LEFT + w)
            .contains(&svg_x)
            .then(|| self.x.0 + (svg_x - PAD_LEFT) / w * (self.x.1 - self.x.0))
    }

    /// An SVG `points` attribute for `points`.
    pub fn polyline(&self, points: &[(i64, f64)]) -> String {
        let mut out = String::with_capacity(points.len() * 12);
        for p in points.iter().filter(|p| p.1.is_finite()) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("{:.1},{:.1}", self.sx(p.0 as f64), self.sy(p.1)));
        }
        out
    }
}

/// Ticks the y axis aims for.
const Y_TICKS: usize = 4;

/// The round step (1, 2 or 5 × 10^k) that cuts `lo..=hi` into about `n` parts.
fn nice_step(lo: f64, hi: f64, n: usize) -> Option<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || n == 0 {
        return None;
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    (step.is_finite() && step > 0.0).then_some(step)
}

/// The x ticks: x is always a whole number here (a step, a sample count, a second, a micro
/// batch), so no tick falls between two (a sweep over micro batches 2 and 4 read 2.5, 3.5).
pub fn x_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let Some(step) = nice_step(lo, hi, 5) else {
        return Vec::new();
    };
    nice_ticks(
        lo,
        hi,
        ((hi - lo) / step.max(1.0)).round().max(1.0) as usize,
    )
    .into_iter()
    .filter(|v| v.fract() == 0.0)
    .collect()
}

/// About `n` round values spanning `lo..=hi` (steps of 1, 2 or 5 × 10^k).
pub fn nice_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let Some(step) = nice_step(lo, hi, n) else {
        return Vec::new();
    };
    // Rounded to the step's decimals: float noise (2.4000000000000004) reads badly.
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let round = |v: f64| -> f64 {
        let r: f64 = format!("{v:.decimals$}").parse().unwrap_or(v);
        if r == 0.0 {
            0.0
        } else {
            r
        }
    };
    let first = (lo / step).ceil() as i64;
    let mut out = Vec::new();
    for k in first.. {
        let v = k as f64 * step;
        if v > hi + step * 1e-9 || out.len() >= 4 * n {
            break;
        }
        out.push(round(v));
    }
    out
}

/// The exponential moving average of `points` with `weight` (0: the raw values), continuing
/// from `start` (the previous point's average) when given.
pub fn ema(points: &[(i64, f64)], weight: f64, start: Option<f64>) -> Vec<(i64, f64)> {
    let w = weight.clamp(0.0, 0.999);
    let mut last = start;
    points
        .iter()
        .map(|&(x, v)| {
            if !v.is_finite() {
                return (x, v);
            }
            let s = match last {
                Some(l) => w * l + (1.0 - w) * v,
                None => v,
            };
            last = Some(s);
            (x, s)
        })
        .collect()
}

/// The index of the point whose x is nearest to `x` (points in rising x).
pub fn nearest(points: &[(i64, f64)], x: f64) -> Option<usize> {
    if points.is_empty() {
        return None;
    }
    let i = points.partition_point(|p| (p.0 as f64) < x);
    if i == 0 {
        return Some(0);
    }
    if i == points.len() {
        return Some(points.len() - 1);
    }
    let (a, b) = (points[i - 1].0 as f64, points[i].0 as f64);
    Some(if x - a <= b - x { i - 1 } else { i })
}

/// An axis label for `v` among ticks `step` apart: as many decimals as the step needs, so
/// neighbours never read the same (`319.5`, `320`, `320.5`).
pub fn tick_label(v: f64, step: f64) -> String {
    let a = v.abs().max(step.abs());
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        return format!("{v:.2e}");
    }
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    format!("{v:.decimals$}")
}

/// A number short enough for a legend or a read-out.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if v.fract() == 0.0 && a < 1e9 {
        format!("{v:.0}")
    } else if a != 0.0 && !(1e-3..1e5).contains(&a) {
        format!("{v:.2e}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        format!("{v:.4}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// One drawn piece of a series: its raw line and, when smoothing, the average's.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub id: u64,
    pub series: usize,
    pub raw: Arc<str>,
    pub smooth: Option<Arc<str>>,
}

/// The first and the last point of a drawn series.
type Ends = ((i64, f64), (i64, f64));

/// What a chart has on screen, and how to bring it up to date with the least drawing.
#[derive(Debug, Clone, Default)]
pub struct Drawing {
    pub frame: Option<Frame>,
    pub chunks: Vec<Chunk>,
    /// Names of the series drawn, and how many points of each.
    names: Vec<String>,
    counts: Vec<usize>,
    /// The smoothed value of each series' last drawn point.
    last_smooth: Vec<Option<f64>>,
    /// The first and last point drawn of each series: when they are no longer the series'
    /// own (another x axis, a thinned series), what is drawn is stale.
    ends: Vec<Option<Ends>>,
    weight: f64,
    live: bool,
    next_id: u64,
    /// How many times everything was redrawn (for tests and the benchmark).
    pub redraws: u64,
}

impl Drawing {
    /// Brings the drawing up to date with `series`; answers whether it only appended.
    pub fn update(
        &mut self,
        series: &NamedSeries,
        weight: f64,
        live: bool,
        x_end: Option<f64>,
    ) -> bool {
        let ends_of = |pts: &[(i64, f64)], n: usize| (n > 0).then(|| (pts[0], pts[n - 1]));
        let same_series = self.names.len() == series.len()
            && self.names.iter().zip(series).all(|(n, s)| *n == s.0)
            && self.counts.iter().zip(series).all(|(c, s)| *c <= s.1.len())
            && self
                .ends
                .iter()
                .zip(series.iter().zip(&self.counts))
                .all(|(e, (s, c))| *e == ends_of(&s.1, *c));
        let fits = same_series
            && self.frame.is_some_and(|f| {
                series
                    .iter()
                    .zip(&self.counts)
                    .all(|(s, c)| f.holds(&s.1[*c..]))
            });
        if same_series
            && fits
            && weight == self.weight
            && live == self.live
            && self.chunks.len() < MAX_CHUNKS
        {
            let frame = self.frame.expect("fits implies a frame");
            for (i, (_, pts)) in series.iter().enumerate() {
                let from = self.counts[i];
                if pts.len() == from {
                    continue;
                }
                // Joined to the last drawn point.
                let start = from.saturating_sub(1);
                let raw = frame.polyline(&pts[start..]);
                let smooth = (weight > 0.0).then(|| {
                    let prev = if from > 0 { self.last_smooth[i] } else { None };
                    let mut s = ema(&pts[from..], weight, prev);
                    if let (Some(p), true) = (prev, from > 0) {
                        s.insert(0, (pts[from - 1].0, p));
                    }
                    self.last_smooth[i] = s.last().map(|p| p.1);
                    Arc::from(frame.polyline(&s))
                });
                self.chunks.push(Chunk {
                    id: self.next_id,
                    series: i,
                    raw: Arc::from(raw),
                    smooth,
                });
                self.next_id += 1;
                self.counts[i] = pts.len();
                self.ends[i] = ends_of(pts, pts.len());
            }
            return true;
        }
        let refs: Vec<&[(i64, f64)]> = series.iter().map(|(_, p)| p.as_slice()).collect();
        self.frame = Frame::fit(&refs, live, x_end);
        self.names = series.iter().map(|s| s.0.clone()).collect();
        self.counts = series.iter().map(|s| s.1.len()).collect();
        self.ends = series.iter().map(|s| ends_of(&s.1, s.1.len())).collect();
        self.weight = weight;
        self.live = live;
        self.chunks.clear();
        self.last_smooth = vec![None; series.len()];
        self.redraws += 1;
        if let Some(frame) = self.frame {
            for (i, (_, pts)) in series.iter().enumerate() {
                let smooth = (weight > 0.0).then(|| {
                    let s = ema(pts, weight, None);
                    self.last_smooth[i] = s.last().map(|p| p.1);
                    Arc::from(frame.polyline(&s))
                });
                self.chunks.push(Chunk {
                    id: self.next_id,
                    series: i,
                    raw: Arc::from(frame.polyline(pts)),
                    smooth,
                });
                self.next_id += 1;
            }
        }
        false
    }
}

/// The i18n key naming an x unit (`samples`, `steps`, `s`).
pub fn unit_key(unit: &str) -> &'static str {
    match unit {
        "steps" => "axis.steps",
        "samples" => "axis.samples",
        _ => "axis.s",
    }
}

/// The controls a page's charts share: the x axis (`samples` or `steps`) and the smoothing.
#[component]
pub fn ChartControls(axis: RwSignal<&'static str>, smoothing: RwSignal<f64>) -> impl IntoView {
    use crate::i18n::t;
    view! {
        <div class="toolbar chart-controls">
            <label>{t("chart.axis")}" "
                <select id="chart-axis" on:change=move |ev| axis.set(if event_target_value(&ev) == "steps" { "steps" } else { "samples" })>
                    <option value="samples" selected=move || axis.get() == "samples">{t("axis.samples")}</option>
                    <option value="steps" selected=move || axis.get() == "steps">{t("axis.steps")}</option>
                </select></label>
            <label>{t("chart.smoothing")}" "
                <input id="chart-smoothing" type="range" min="0" max="0.95" step="0.05"
                    prop:value=move || smoothing.get().to_string()
                    on:input=move |ev| smoothing.set(event_target_value(&ev).parse().unwrap_or(0.0)) />
                <output>{move || format!("{:.2}", smoothing.get())}</output></label>
            <span class="muted">{t("chart.hover_hint")}</span>
        </div>
    }
}

/// A chart of the named series.
#[component]
pub fn LineChart(
    /// Stable key of the chart (its element id is `chart-<key>`).
    key: &'static str,
    #[prop(into)] title: Signal<&'static str>,
    /// The series to draw (by name), as `(label, points)`.
    #[prop(into)]
    series: Signal<NamedSeries>,
    /// What the x axis counts.
    #[prop(into)]
    x_label: Signal<String>,
    /// Why there are no points, said instead of a bare "—".
    #[prop(optional)]
    empty: Option<Signal<Option<String>>>,
    /// Smoothing weight, 0 (none) to 0.99.
    #[prop(optional, into)]
    smoothing: Option<Signal<f64>>,
    /// Points still arrive: leave room to grow, append instead of redrawing.
    #[prop(optional, into)]
    live: Option<Signal<bool>>,
    /// Where x is expected to end (the run's last step or sample).
    #[prop(optional, into)]
    x_end: Option<Signal<Option<f64>>>,
) -> impl IntoView {
    let id = format!("chart-{}", key.replace('.', "-"));
    let drawing = StoredValue::new(Drawing::default());
    let frame = RwSignal::new(None::<Frame>);
    let chunks = RwSignal::new(Vec::<Chunk>::new());
    let redraws = RwSignal::new(0u64);
    Effect::new(move |_| {
        let weight = smoothing.map_or(0.0, |s| s.get());
        let live = live.is_some_and(|l| l.get());
        let end = x_end.and_then(|e| e.get());
        series.with(|s| {
            drawing.update_value(|d| {
                let appended = d.update(s, weight, live, end);
                if appended {
                    let have = chunks.with_untracked(Vec::len);
                    let new: Vec<Chunk> = d.chunks[have.min(d.chunks.len())..].to_vec();
                    if !new.is_empty() {
                        chunks.update(|c| c.extend(new));
                    }
                } else {
                    frame.set(d.frame);
                    chunks.set(d.chunks.clone());
                    redraws.set(d.redraws);
                }
            })
        });
    });
    // Hover (or arrow keys): the x under the pointer, and each series' nearest value there.
    let hover = RwSignal::new(None::<f64>);
    let count = move || series.with(|s| s.iter().map(|(_, p)| p.len()).sum::<usize>());
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let svg_x = (ev.client_x() as f64 - rect.left()) / rect.width() * WIDTH;
        hover.set(frame.get_untracked().and_then(|f| f.x_at(svg_x)));
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let dir = match ev.key().as_str() {
            "ArrowRight" => 1i64,
            "ArrowLeft" => -1,
            "Escape" => {
                hover.set(None);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        series.with_untracked(|s| {
            let Some((_, pts)) = s.iter().find(|(_, p)| !p.is_empty()) else {
                return;
            };
            let i = match hover.get_untracked().and_then(|x| nearest(pts, x)) {
                Some(i) => (i as i64 + dir).clamp(0, pts.len() as i64 - 1) as usize,
                None if dir > 0 => 0,
                None => pts.len() - 1,
            };
            hover.set(Some(pts[i].0 as f64));
        });
    };
    let readout = Memo::new(move |_| {
        let x = hover.get()?;
        let weight = smoothing.map_or(0.0, |s| s.get());
        series.with(|s| {
            let mut at = None;
            let rows: Vec<(usize, String, f64, Option<f64>)> = s
                .iter()
                .enumerate()
                .filter_map(|(i, (name, pts))| {
                    let k = nearest(pts, x)?;
                    at.get_or_insert(pts[k].0);
                    let smooth = (weight > 0.0)
                        .then(|| ema(&pts[..=k], weight, None).last().map(|p| p.1))
                        .flatten();
                    Some((i, name.clone(), pts[k].1, smooth))
                })
                .collect();
            at.map(|x| (x, rows))
        })
    });
    view! {
        <figure class="chart" id=id data-points=count data-redraws=move || redraws.get()
            tabindex="0" on:keydown=on_key aria-label=move || title.get()>
            <figcaption>{move || title.get()}
                {move || series.get().into_iter().enumerate().map(|(i, (name, pts))| view! {
                    <span class="legend" style:color=COLOURS[i % COLOURS.len()]>
                        {format!(" ■ {name} {}", pts.last().map(|p| tick(p.1)).unwrap_or_default())}
                    </span>
                }).collect_view()}
            </figcaption>
            {move || match frame.get() {
                None => view! {
                    <p class="muted empty-reason">{move || empty.and_then(|e| e.get()).unwrap_or_else(|| "—".into())}</p>
                }.into_any(),
                Some(f) => {
                    let smooth_on = smoothing.is_some_and(|s| s.get() > 0.0);
                    view! {
                    <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=move || title.get()
                        node_ref=svg_ref on:mousemove=on_move on:mouseleave=move |_| hover.set(None)>
                        {let ys = nice_ticks(f.y.0, f.y.1, Y_TICKS);
                         let step = if ys.len() > 1 { ys[1] - ys[0] } else { 1.0 };
                         ys.into_iter().map(move |v| view! {
                            <line class="grid" x1=PAD_LEFT y1=f.sy(v) x2=WIDTH - PAD_RIGHT y2=f.sy(v) />
                            <text class="tick" x=PAD_LEFT - 4.0 y=f.sy(v) + 3.0 text-anchor="end">{tick_label(v, step)}</text>
                        }).collect_view()}
                        {let xs = x_ticks(f.x.0, f.x.1);
                         let step = if xs.len() > 1 { xs[1] - xs[0] } else { 1.0 };
                         xs.into_iter().map(move |v| view! {
                            <line class="grid" x1=f.sx(v) y1=PAD_TOP x2=f.sx(v) y2=HEIGHT - PAD_BOTTOM />
                            <text class="tick" x=f.sx(v) y=HEIGHT - 8.0 text-anchor="middle">{tick_label(v, step)}</text>
                        }).collect_view()}
                        <line class="axis" x1=PAD_LEFT y1=PAD_TOP x2=PAD_LEFT y2=HEIGHT - PAD_BOTTOM />
                        <line class="axis" x1=PAD_LEFT y1=HEIGHT - PAD_BOTTOM x2=WIDTH - PAD_RIGHT y2=HEIGHT - PAD_BOTTOM />
                        <text class="tick x-label" x=WIDTH - PAD_RIGHT y=HEIGHT - 0.5 text-anchor="end">{move || x_label.get()}</text>
                        <g class="lines">
                            <For each=move || chunks.get() key=|c| c.id let:c>
                                <polyline class=if smooth_on { "raw faint" } else { "raw" } fill="none"
                                    stroke=COLOURS[c.series % COLOURS.len()] stroke-width="1.5" points=c.raw.to_string() />
                                {c.smooth.as_ref().map(|s| view! {
                                    <polyline class="smooth" fill="none" stroke=COLOURS[c.series % COLOURS.len()] stroke-width="2" points=s.to_string() />
                                })}
                            </For>
                        </g>
                        // A series of one point has no line to draw: a dot shows it.
                        {move || series.with(|s| s.iter().enumerate().filter(|(_, (_, p))| p.len() == 1 && p[0].1.is_finite()).map(|(i, (_, p))| view! {
                            <circle class="dot" cx=f.sx(p[0].0 as f64) cy=f.sy(p[0].1) r="3" fill=COLOURS[i % COLOURS.len()] />
                        }).collect_view())}
                        {move || readout.get().map(|(x, _)| view! {
                            <line class="cursor" x1=f.sx(x as f64) y1=PAD_TOP x2=f.sx(x as f64) y2=HEIGHT - PAD_BOTTOM />
                        })}
                    </svg>
                    }.into_any()
                }
            }}
            {move || readout.get().map(|(x, rows)| {
                let left = frame.get().map_or(50.0, |f| f.sx(x as f64) / WIDTH * 100.0);
                // Past the middle the tip opens to the left of the cursor.
                let tip_class = if left > 60.0 { "chart-tip flip" } else { "chart-tip" };
                view! {
                    <div class=tip_class role="status"
                        style:left=format!("{left:.1}%")>
                        <div class="tip-x">{format!("{} {}", tick(x as f64), x_label.get())}</div>
                        {rows.into_iter().map(|(i, name, v, s)| view! {
                            <div style:color=COLOURS[i % COLOURS.len()]>
                                {format!("{name}: {}", tick(v))}
                                {s.map(|s| format!(" (≈ {})", tick(s)))}
                            </div>
                        }).collect_view()}
                    </div>
                }
            })}
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(s: &str) -> Vec<(f64, f64)> {
        s.split(' ')
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn points_are_scaled_into_the_chart_area() {
        let a = [(8, 6.0), (16, 5.0), (24, 4.0)];
        let f = Frame::fit(&[&a], false, None).unwrap();
        assert_eq!(f.x, (8.0, 24.0));
        assert_eq!(f.y, (4.0, 6.0));
        let p = pts(&f.polyline(&a));
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].0, PAD_LEFT);
        assert_eq!(p[2].0, WIDTH - PAD_RIGHT);
        // The highest value is at the top, the lowest at the bottom.
        assert_eq!(p[0].1, PAD_TOP);
        assert_eq!(p[2].1, HEIGHT - PAD_BOTTOM);
        assert_eq!(f.x_at(PAD_LEFT), Some(8.0));
        assert_eq!(f.x_at(WIDTH - PAD_RIGHT), Some(24.0));
        assert_eq!(f.x_at(1.0), None);
    }

    #[test]
    fn flat_empty_and_live_frames() {
        assert!(Frame::fit(&[&[]], false, None).is_none());
        let flat = Frame::fit(&[&[(1, 0.001), (2, 0.001)]], false, None).unwrap();
        assert!(flat.y.0 < 0.001 && flat.y.1 > 0.001);
        let one = Frame::fit(&[&[(5, 1.0)]], false, None).unwrap();
        assert!(!one.polyline(&[(5, 1.0)]).contains("NaN"));
        // Live: room up to the expected end, or a quarter more; a tenth on y at least, out
        // to the round ticks around it (0.9..2.1 in steps of 0.5).
        let live = Frame::fit(&[&[(0, 1.0), (100, 2.0)]], true, Some(1000.0)).unwrap();
        assert_eq!(live.x, (0.0, 1000.0));
        assert_eq!(live.y, (0.5, 2.5));
        let grow = Frame::fit(&[&[(0, 1.0), (100, 2.0)]], true, None).unwrap();
        assert_eq!(grow.x, (0.0, 125.0));
        assert!(grow.holds(&[(120, 2.05)]));
        assert!(!grow.holds(&[(130, 2.0)]));
        assert!(!grow.holds(&[(120, 3.0)]));
        assert_eq!(tick(0.000431), "4.31e-4");
        assert_eq!(tick(381.5), "382");
        assert_eq!(tick(5.52), "5.52");
        assert_eq!(tick(72.0), "72");
        assert_eq!(tick(0.25), "0.25");
    }

    #[test]
    fn tick_labels_tell_neighbours_apart() {
        let xs = nice_ticks(319.0, 321.0, 5);
        let step = xs[1] - xs[0];
        let labels: Vec<String> = xs.iter().map(|v| tick_label(*v, step)).collect();
        assert_eq!(labels, ["319.0", "319.5", "320.0", "320.5", "321.0"]);
        assert_eq!(tick_label(200.0, 100.0), "200");
        assert_eq!(tick_label(0.0005, 0.0001), "5.00e-4");
        assert_eq!(tick_label(2.4, 0.2), "2.4");
    }

    #[test]
    fn the_y_axis_reaches_round_ticks_around_the_points() {
        // Issue 49: two sweep points at 122 and 126 samples/s were drawn on ticks 123 to 125.
        let pts: [(i64, f64); 2] = [(2, 122.0), (4, 126.0)];
        let f = Frame::fit(&[&pts], false, None).unwrap();
        let ys = nice_ticks(f.y.0, f.y.1, Y_TICKS);
        assert!(
            ys.first().unwrap() <= &122.0 && ys.last().unwrap() >= &126.0,
            "{ys:?} for {f:?}"
        );
        assert!(f.holds(&pts));
        // Live charts keep their room and still end on ticks.
        let live = Frame::fit(&[&pts], true, None).unwrap();
        let ys = nice_ticks(live.y.0, live.y.1, Y_TICKS);
        assert!(
            ys.first().unwrap() <= &122.0 && ys.last().unwrap() >= &126.0,
            "{ys:?}"
        );
        // Values from 0 (memory as a job starts) keep the axis at 0, not below it.
        let mem: [(i64, f64); 3] = [(0, 0.0), (5, 9000.0), (10, 18000.0)];
        let f = Frame::fit(&[&mem], true, None).unwrap();
        assert_eq!(f.y.0, 0.0, "{f:?}");
        assert!(f.holds(&mem));
    }

    #[test]
    fn x_ticks_are_whole_numbers() {
        assert_eq!(x_ticks(2.0, 4.0), vec![2.0, 3.0, 4.0]);
        assert_eq!(
            x_ticks(0.0, 100.0),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert!(x_ticks(1.0, 1.0).is_empty());
    }

    #[test]
    fn ticks_are_round_and_inside() {
        assert_eq!(
            nice_ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(nice_ticks(2.13, 2.87, 4), vec![2.2, 2.4, 2.6, 2.8]);
        let t = nice_ticks(-0.3, 0.3, 4);
        assert!(t.contains(&0.0), "{t:?}");
        assert!(nice_ticks(1.0, 1.0, 4).is_empty());
        assert!(nice_ticks(0.0, f64::NAN, 4).is_empty());
    }

    #[test]
    fn smoothing_and_nearest_points() {
        let s = ema(&[(1, 10.0), (2, 0.0), (3, 0.0)], 0.5, None);
        assert_eq!(s, vec![(1, 10.0), (2, 5.0), (3, 2.5)]);
        // Continuing from an earlier average gives what one pass would.
        let whole = ema(&[(1, 4.0), (2, 8.0), (3, 2.0), (4, 6.0)], 0.6, None);
        let first = ema(&[(1, 4.0), (2, 8.0)], 0.6, None);
        let rest = ema(&[(3, 2.0), (4, 6.0)], 0.6, Some(first[1].1));
        assert_eq!([first, rest].concat(), whole);
        assert_eq!(
            ema(&[(1, 3.0), (2, 7.0)], 0.0, None),
            vec![(1, 3.0), (2, 7.0)]
        );
        let p = [(10, 1.0), (20, 2.0), (40, 3.0)];
        assert_eq!(nearest(&p, 0.0), Some(0));
        assert_eq!(nearest(&p, 14.0), Some(0));
        assert_eq!(nearest(&p, 16.0), Some(1));
        assert_eq!(nearest(&p, 31.0), Some(2));
        assert_eq!(nearest(&p, 99.0), Some(2));
        assert_eq!(nearest(&[], 1.0), None);
    }

    #[test]
    fn a_live_chart_appends_and_redraws_only_when_it_must() {
        let mut d = Drawing::default();
        let mut s: NamedSeries = vec![(
            "loss".into(),
            (0..10).map(|i| (i, 5.0 - i as f64 * 0.1)).collect(),
        )];
        assert!(!d.update(&s, 0.0, true, Some(100.0)), "the first draw");
        assert_eq!((d.redraws, d.chunks.len()), (1, 1));
        // Points inside the frame: one new chunk each time, joined to the last point.
        for step in 10..40 {
            s[0].1.push((step, 4.5));
            assert!(d.update(&s, 0.0, true, Some(100.0)));
        }
        assert_eq!((d.redraws, d.chunks.len()), (1, 31));
        let last = pts(&d.chunks[30].raw);
        assert_eq!(last.len(), 2, "joined to the point before it");
        // Nothing new: nothing drawn.
        assert!(d.update(&s, 0.0, true, Some(100.0)));
        assert_eq!(d.chunks.len(), 31);
        // A value above the frame redraws everything, merged into one chunk.
        s[0].1.push((40, 50.0));
        assert!(!d.update(&s, 0.0, true, Some(100.0)));
        assert_eq!((d.redraws, d.chunks.len()), (2, 1));
        // Smoothing changes redraw; then the average continues across chunks.
        assert!(!d.update(&s, 0.5, true, Some(100.0)));
        s[0].1.push((41, 4.0));
        assert!(d.update(&s, 0.5, true, Some(100.0)));
        let whole = ema(&s[0].1, 0.5, None);
        let frame = d.frame.unwrap();
        let tail = pts(d.chunks.last().unwrap().smooth.as_ref().unwrap());
        let want_y = frame.sy(whole.last().unwrap().1);
        assert!(
            (tail.last().unwrap().1 - want_y).abs() < 0.1,
            "{tail:?} vs {want_y}"
        );
        // The same points on another x axis (steps instead of samples): redrawn, not kept.
        let redraws = d.redraws;
        let rescaled: NamedSeries = s
            .iter()
            .map(|(n, p)| (n.clone(), p.iter().map(|(x, v)| (x / 8, *v)).collect()))
            .collect();
        assert!(!d.update(&rescaled, 0.5, true, Some(100.0)));
        assert_eq!(d.redraws, redraws + 1);
        assert!(!d.update(&s, 0.5, true, Some(100.0)));
        // The run ends: the frame closes around the points.
        assert!(!d.update(&s, 0.5, false, Some(100.0)));
        assert_eq!(d.frame.unwrap().x.1, 41.0);
        // Another series, or fewer points: redraw.
        s.push(("lr".into(), vec![(1, 0.1)]));
        assert!(!d.update(&s, 0.5, true, Some(100.0)));
        s[0].1.truncate(5);
        assert!(!d.update(&s, 0.5, true, Some(100.0)));
    }
}
