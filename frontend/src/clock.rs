//! The browser's clock, for durations and for names made by a click (outside a browser, in
//! native tests, a fixed value).

/// Milliseconds since the epoch, from the browser's clock (0 outside a browser).
pub fn js_sys_now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// The browser's time as `2026-11-22 01:50:12` (UTC), to tell apart names made by a click
/// (a fork, a template from a preset).
pub fn now_label() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let iso: String = web_sys::js_sys::Date::new_0().to_iso_string().into();
        iso.get(..19).unwrap_or(&iso).replace('T', " ")
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        String::from("now")
    }
}

/// Milliseconds of an RFC 3339 UTC time as the server writes it (`2026-11-21T21:46:51.712Z`).
pub fn parse_ms(s: &str) -> Option<f64> {
    let (date, time) = s.trim_end_matches('Z').split_once('T')?;
    let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut tp = time.split(':');
    let (h, mi) = (
        tp.next()?.parse::<i64>().ok()?,
        tp.next()?.parse::<i64>().ok()?,
    );
    let sec: f64 = tp.next()?.parse().ok()?;
    // Days since 1970-01-01 (proleptic Gregorian), Howard Hinnant's algorithm.
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    Some(((days * 86400 + h * 3600 + mi * 60) as f64 + sec) * 1000.0)
}

/// The browser's clock as a signal that moves every 30 seconds: what relative times ("5 min
/// ago") are computed against, one timer for the whole app. Reference-counted, not owned by
/// the component that first asked for it (which may be gone when the timer fires).
pub fn ticking_now() -> leptos::prelude::ArcRwSignal<f64> {
    use leptos::prelude::*;
    thread_local! {
        static NOW: std::cell::OnceCell<ArcRwSignal<f64>> = const { std::cell::OnceCell::new() };
    }
    NOW.with(|cell| {
        cell.get_or_init(|| {
            let now = ArcRwSignal::new(js_sys_now());
            #[cfg(target_arch = "wasm32")]
            {
                let ticking = now.clone();
                set_interval(
                    move || ticking.set(js_sys_now()),
                    std::time::Duration::from_secs(30),
                );
            }
            now
        })
        .clone()
    })
}

/// How long ago `then_ms` was at `now_ms`, as a person says it: `just now`, `5 min ago`,
/// `3 h ago`, `yesterday`, `4 days ago`; beyond a month, the date (`2026-11-02`). In Chinese:
/// `刚刚`, `5 分钟前`, `3 小时前`, `昨天`, `4 天前`. A time ahead of the clock (a skewed clock)
/// counts as now.
pub fn relative(then_ms: f64, now_ms: f64, lang: ds_studio_shared::i18n::Lang) -> String {
    let zh = lang == ds_studio_shared::i18n::Lang::Zh;
    // A time to come (when a link or a token expires): "in 24 h", not "just now".
    let ahead = ((then_ms - now_ms) / 1000.0) as i64;
    if ahead > 44 {
        let (min, hour, day) = (ahead / 60, ahead / 3600, ahead / 86400);
        return match (ahead, zh) {
            (..=3599, false) => format!("in {} min", min.max(1)),
            (..=3599, true) => format!("{} 分钟后", min.max(1)),
            (..=86399, false) => format!("in {hour} h"),
            (..=86399, true) => format!("{hour} 小时后"),
            _ if day < 31 => {
                if zh {
                    format!("{day} 天后")
                } else if day == 1 {
                    "in 1 day".into()
                } else {
                    format!("in {day} days")
                }
            }
            _ => date_of(then_ms),
        };
    }
    let secs = ((now_ms - then_ms) / 1000.0).max(0.0) as i64;
    let (min, hour, day) = (secs / 60, secs / 3600, secs / 86400);
    match (secs, zh) {
        (0..=44, false) => "just now".into(),
        (0..=44, true) => "刚刚".into(),
        (45..=3599, false) => format!("{} min ago", min.max(1)),
        (45..=3599, true) => format!("{} 分钟前", min.max(1)),
        (3600..=86399, false) => format!("{hour} h ago"),
        (3600..=86399, true) => format!("{hour} 小时前"),
        (86400..=172799, false) => "yesterday".into(),
        (86400..=172799, true) => "昨天".into(),
        (_, _) if day < 31 => {
            if zh {
                format!("{day} 天前")
            } else {
                format!("{day} days ago")
            }
        }
        _ => date_of(then_ms),
    }
}

/// `2026-11-02` (UTC) of a time in milliseconds since the epoch.
fn date_of(ms: f64) -> String {
    // Civil from days (Howard Hinnant's algorithm).
    let z = (ms / 86_400_000.0).floor() as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The absolute time in the browser's time zone and `lang`'s format (`2026/11/24 16:05:12`),
/// for the hover text of a relative time; the ISO string outside a browser.
pub fn local_time(iso: &str, lang: ds_studio_shared::i18n::Lang) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let date = web_sys::js_sys::Date::new(&wasm_bindgen::JsValue::from_str(iso));
        if date.get_time().is_nan() {
            return iso.to_string();
        }
        let locale = if lang == ds_studio_shared::i18n::Lang::Zh {
            "zh-CN"
        } else {
            "en-GB"
        };
        date.to_locale_string(locale, &wasm_bindgen::JsValue::UNDEFINED)
            .into()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = lang;
        iso.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ds_studio_shared::i18n::Lang;

    const NOW: f64 = 1_795_000_000_000.0;

    #[test]
    fn times_read_as_a_person_says_them() {
        let ago = |s: f64, lang| relative(NOW - s * 1000.0, NOW, lang);
        assert_eq!(ago(3.0, Lang::En), "just now");
        assert_eq!(ago(-30.0, Lang::En), "just now", "a clock ahead is now");
        assert_eq!(ago(50.0, Lang::En), "1 min ago");
        assert_eq!(ago(5.0 * 60.0, Lang::Zh), "5 分钟前");
        assert_eq!(ago(3.0 * 3600.0 + 5.0, Lang::En), "3 h ago");
        assert_eq!(ago(30.0 * 3600.0, Lang::Zh), "昨天");
        assert_eq!(ago(4.0 * 86400.0, Lang::En), "4 days ago");
        assert_eq!(ago(4.0 * 86400.0, Lang::Zh), "4 天前");
        assert_eq!(relative(0.0, NOW, Lang::En), "1970-01-01");
        assert_eq!(date_of(1_795_000_000_000.0), "2026-11-18");
        assert_eq!(date_of(951_782_400_000.0), "2000-02-29");
        // Times to come: a link that expires tomorrow is not "just now".
        assert_eq!(ago(-24.0 * 3600.0 + 30.0, Lang::En), "in 23 h");
        assert_eq!(ago(-24.0 * 3600.0 - 5.0, Lang::Zh), "1 天后");
        assert_eq!(ago(-10.0 * 60.0, Lang::En), "in 10 min");
        assert_eq!(ago(-3.0 * 86400.0, Lang::En), "in 3 days");
        assert_eq!(ago(-25.0 * 3600.0, Lang::En), "in 1 day");
    }
}
