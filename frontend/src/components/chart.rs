//! A line chart in SVG for job metrics: one or more series on shared axes, redrawn as points
//! arrive. The geometry ([`Plot`]) is plain Rust, tested natively and with wasm-bindgen-test.

use leptos::prelude::*;

/// Chart size in SVG units (the element scales to its container).
pub const WIDTH: f64 = 480.0;
pub const HEIGHT: f64 = 180.0;
const PAD_LEFT: f64 = 56.0;
const PAD_RIGHT: f64 = 8.0;
const PAD_TOP: f64 = 8.0;
const PAD_BOTTOM: f64 = 22.0;

/// Colours of the series, in order.
pub const COLOURS: [&str; 6] = [
    "#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2",
];

/// Named series of `(step, value)` points, as a chart draws them.
pub type NamedSeries = Vec<(String, Vec<(i64, f64)>)>;

/// The scaled geometry of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// One SVG `points` attribute per series.
    pub polylines: Vec<String>,
}

fn range(vals: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return None;
    }
    if lo == hi {
        // A flat line sits in the middle of a small band.
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return Some((lo - pad, hi + pad));
    }
    Some((lo, hi))
}

impl Plot {
    /// Scales `series` (each a list of `(step, value)`) into the chart area.
    pub fn new(series: &[&[(i64, f64)]]) -> Option<Plot> {
        let xs = range(series.iter().flat_map(|s| s.iter().map(|p| p.0 as f64)))?;
        let ys = range(series.iter().flat_map(|s| s.iter().map(|p| p.1)))?;
        let w = WIDTH - PAD_LEFT - PAD_RIGHT;
        let h = HEIGHT - PAD_TOP - PAD_BOTTOM;
        let sx = |x: f64| {
            if xs.1 > xs.0 {
                PAD_LEFT + (x - xs.0) / (xs.1 - xs.0) * w
            } else {
                PAD_LEFT + w / 2.0
            }
        };
        let sy = |y: f64| PAD_TOP + h - (y - ys.0) / (ys.1 - ys.0) * h;
        let polylines = series
            .iter()
            .map(|s| {
                s.iter()
                    .filter(|p| p.1.is_finite())
                    .map(|p| format!("{:.1},{:.1}", sx(p.0 as f64), sy(p.1)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        Some(Plot {
            x_range: xs,
            y_range: ys,
            polylines,
        })
    }
}

/// A number short enough for an axis label.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if v.fract() == 0.0 && a < 1e9 {
        format!("{v:.0}")
    } else if a != 0.0 && !(1e-3..1e5).contains(&a) {
        format!("{v:.2e}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// A chart of the named series; `series` maps a name to its points.
#[component]
pub fn LineChart(
    /// Stable key of the chart (its element id is `chart-<key>`).
    key: &'static str,
    #[prop(into)] title: Signal<&'static str>,
    /// The series to draw (by name), as `(label, points)`.
    #[prop(into)]
    series: Signal<NamedSeries>,
    /// What the x axis counts.
    x_label: &'static str,
    /// Why there are no points, said instead of a bare "—".
    #[prop(optional)]
    empty: Option<Signal<Option<String>>>,
) -> impl IntoView {
    let id = format!("chart-{}", key.replace('.', "-"));
    let plot = Memo::new(move |_| {
        series.with(|s| {
            let refs: Vec<&[(i64, f64)]> = s.iter().map(|(_, p)| p.as_slice()).collect();
            Plot::new(&refs)
        })
    });
    let count = move || series.with(|s| s.iter().map(|(_, p)| p.len()).sum::<usize>());
    view! {
        <figure class="chart" id=id data-points=count>
            <figcaption>{move || title.get()}
                {move || series.get().into_iter().enumerate().map(|(i, (name, pts))| view! {
                    <span class="legend" style:color=COLOURS[i % COLOURS.len()]>
                        {format!(" ■ {name} {}", pts.last().map(|p| tick(p.1)).unwrap_or_default())}
                    </span>
                }).collect_view()}
            </figcaption>
            {move || match plot.get() {
                None => view! {
                    <p class="muted empty-reason">{move || empty.and_then(|e| e.get()).unwrap_or_else(|| "—".into())}</p>
                }.into_any(),
                Some(p) => view! {
                    <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=move || title.get()>
                        <line class="axis" x1=PAD_LEFT y1=PAD_TOP x2=PAD_LEFT y2=HEIGHT - PAD_BOTTOM />
                        <line class="axis" x1=PAD_LEFT y1=HEIGHT - PAD_BOTTOM x2=WIDTH - PAD_RIGHT y2=HEIGHT - PAD_BOTTOM />
                        <text class="tick" x=PAD_LEFT - 4.0 y=PAD_TOP + 8.0 text-anchor="end">{tick(p.y_range.1)}</text>
                        <text class="tick" x=PAD_LEFT - 4.0 y=HEIGHT - PAD_BOTTOM text-anchor="end">{tick(p.y_range.0)}</text>
                        <text class="tick" x=PAD_LEFT y=HEIGHT - 6.0>{tick(p.x_range.0)}</text>
                        <text class="tick" x=WIDTH - PAD_RIGHT y=HEIGHT - 6.0 text-anchor="end">{format!("{} {x_label}", tick(p.x_range.1))}</text>
                        {p.polylines.into_iter().enumerate().map(|(i, pts)| view! {
                            <polyline fill="none" stroke=COLOURS[i % COLOURS.len()] stroke-width="1.5" points=pts />
                        }).collect_view()}
                    </svg>
                }.into_any(),
            }}
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_scaled_into_the_chart_area() {
        let a = [(8, 6.0), (16, 5.0), (24, 4.0)];
        let p = Plot::new(&[&a]).unwrap();
        assert_eq!(p.x_range, (8.0, 24.0));
        assert_eq!(p.y_range, (4.0, 6.0));
        let pts: Vec<(f64, f64)> = p.polylines[0]
            .split(' ')
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(pts.len(), 3);
        assert_eq!(pts[0].0, PAD_LEFT);
        assert_eq!(pts[2].0, WIDTH - PAD_RIGHT);
        // The highest value is at the top, the lowest at the bottom.
        assert_eq!(pts[0].1, PAD_TOP);
        assert_eq!(pts[2].1, HEIGHT - PAD_BOTTOM);
    }

    #[test]
    fn flat_and_empty_series_are_drawn_sensibly() {
        assert!(Plot::new(&[&[]]).is_none());
        let flat = Plot::new(&[&[(1, 0.001), (2, 0.001)]]).unwrap();
        assert!(flat.y_range.0 < 0.001 && flat.y_range.1 > 0.001);
        let one = Plot::new(&[&[(5, 1.0)]]).unwrap();
        assert!(!one.polylines[0].contains("NaN"));
        assert_eq!(tick(0.000431), "4.31e-4");
        assert_eq!(tick(381.5), "382");
        assert_eq!(tick(5.52), "5.520");
        assert_eq!(tick(72.0), "72");
    }
}
