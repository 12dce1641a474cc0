//! The editor's undo/redo history: every change to the config text — typing in the JSON view,
//! a form field, a fix, "Apply all", a merge, an upgrade — is one step back (Ctrl+Z) and one
//! step forward (Ctrl+Shift+Z or Ctrl+Y). Typing coalesces: keystrokes in the same field less
//! than [`COALESCE_MS`] apart are one step, so undo takes back a word, not a letter; typing in
//! another field (the JSON text, then a form field) starts a new step.
//!
//! Pure and clock-free (the caller passes the time), so it is unit-tested natively.

/// Keystrokes closer together than this are one step.
pub const COALESCE_MS: f64 = 1000.0;
/// Steps kept back; the oldest are dropped beyond it.
pub const LIMIT: usize = 200;

/// How a change was made: typing (in the field named) coalesces with the typing just before
/// it in the same field; anything else is a step of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Typing(String),
    Discrete,
}

#[derive(Debug, Clone, Default)]
pub struct History {
    past: Vec<String>,
    future: Vec<String>,
    current: String,
    /// When the last typing step was recorded, and in which field; `None` after anything else.
    typing_at: Option<(f64, String)>,
}

impl History {
    /// A history that starts at `text` (a loaded version): nothing to undo.
    pub fn new(text: &str) -> History {
        History {
            current: text.to_string(),
            ..History::default()
        }
    }

    /// Records that the text is now `text`. Returns whether it was a change.
    pub fn record(&mut self, text: &str, edit: Edit, now_ms: f64) -> bool {
        if text == self.current {
            return false;
        }
        let coalesce = match (&edit, &self.typing_at) {
            (Edit::Typing(field), Some((t, last))) => {
                field == last && now_ms - t < COALESCE_MS && !self.past.is_empty()
            }
            _ => false,
        };
        if !coalesce {
            self.past.push(std::mem::take(&mut self.current));
            if self.past.len() > LIMIT {
                self.past.remove(0);
            }
        }
        self.current = text.to_string();
        self.future.clear();
        self.typing_at = match edit {
            Edit::Typing(field) => Some((now_ms, field)),
            Edit::Discrete => None,
        };
        true
    }

    /// The text one step back, which becomes current; `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        let previous = self.past.pop()?;
        self.future
            .push(std::mem::replace(&mut self.current, previous.clone()));
        self.typing_at = None;
        Some(previous)
    }

    /// The text one step forward again; `None` when nothing was undone since the last change.
    pub fn redo(&mut self) -> Option<String> {
        let next = self.future.pop()?;
        self.past
            .push(std::mem::replace(&mut self.current, next.clone()));
        self.typing_at = None;
        Some(next)
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }
}

/// Where two texts first differ (a byte offset on a char boundary of `b`): where the caret goes
/// after an undo or redo.
pub fn first_difference(a: &str, b: &str) -> usize {
    let mut at = 0;
    for ((i, x), y) in b.char_indices().zip(a.chars()) {
        if x != y {
            return i;
        }
        at = i + x.len_utf8();
    }
    at
}

/// The history wired to a config text: every change of `text` is recorded (typing told apart
/// by the `beforeinput` event just before it), and Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y go back and
/// forth while the focus is in the element marked `data-undo-scope` (or on no field at all);
/// other fields (the version message) keep their own undo.
#[derive(Clone, Copy)]
pub struct Undo {
    history: leptos::prelude::StoredValue<History>,
    text: leptos::prelude::RwSignal<String>,
    pub can_undo: leptos::prelude::RwSignal<bool>,
    pub can_redo: leptos::prelude::RwSignal<bool>,
}

impl Undo {
    pub fn attach(text: leptos::prelude::RwSignal<String>) -> Undo {
        use leptos::prelude::*;
        let history = StoredValue::new(History::new(&text.get_untracked()));
        // When `beforeinput` last fired in the config's fields, and in which one.
        let typed_at = StoredValue::new((f64::NEG_INFINITY, String::new()));
        let undo = Undo {
            history,
            text,
            can_undo: RwSignal::new(false),
            can_redo: RwSignal::new(false),
        };
        Effect::new(move |_| {
            let now = crate::clock::js_sys_now();
            // The text changes in the input event that follows `beforeinput`; the mark is used
            // once, so a fix clicked right after typing is a step of its own.
            let (at, field) = typed_at.get_value();
            let edit = if now - at < 100.0 {
                Edit::Typing(field)
            } else {
                Edit::Discrete
            };
            typed_at.set_value((f64::NEG_INFINITY, String::new()));
            text.with(|t| history.update_value(|h| _ = h.record(t, edit, now)));
            undo.refresh();
        });
        // Only input into the config's own fields counts (not the version message, not the
        // world size on `/`).
        let before = window_event_listener(leptos::ev::beforeinput, move |ev| {
            if in_scope(ev.target()) {
                typed_at.set_value((crate::clock::js_sys_now(), target_id(ev.target())))
            }
        });
        let keys = window_event_listener(leptos::ev::keydown, move |ev| {
            if !(ev.ctrl_key() || ev.meta_key()) {
                return;
            }
            let key = ev.key().to_lowercase();
            let redo = (key == "z" && ev.shift_key()) || key == "y";
            if !(redo || key == "z") || !in_scope(ev.target()) {
                return;
            }
            ev.prevent_default();
            if redo {
                undo.redo();
            } else {
                undo.undo();
            }
        });
        on_cleanup(move || {
            before.remove();
            keys.remove();
        });
        undo
    }

    /// Starts over at `text` (a version loaded): nothing to undo. Call it before setting the text.
    pub fn reset(&self, text: &str) {
        use leptos::prelude::*;
        self.history.set_value(History::new(text));
        self.refresh();
    }

    pub fn undo(&self) {
        use leptos::prelude::*;
        let step = self.history.try_update_value(History::undo).flatten();
        self.go(step);
    }

    pub fn redo(&self) {
        use leptos::prelude::*;
        let step = self.history.try_update_value(History::redo).flatten();
        self.go(step);
    }

    fn go(&self, step: Option<String>) {
        use leptos::prelude::*;
        if let Some(next) = step {
            let before = self.text.get_untracked();
            let at = first_difference(&before, &next);
            let caret = next[..at].encode_utf16().count() as u32;
            self.text.set(next);
            place_caret(caret);
        }
        self.refresh();
    }

    fn refresh(&self) {
        use leptos::prelude::*;
        let (u, r) = self.history.with_value(|h| (h.can_undo(), h.can_redo()));
        self.can_undo.set(u);
        self.can_redo.set(r);
    }
}

/// Whether a shortcut pressed on `target` is the config's: inside `data-undo-scope`, or on
/// something that is not a field.
fn in_scope(target: Option<web_sys::EventTarget>) -> bool {
    use wasm_bindgen::JsCast;
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return true;
    };
    if el.closest("[data-undo-scope]").ok().flatten().is_some() {
        return true;
    }
    !matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
}

/// The id of the field an event came from (empty when it has none).
fn target_id(target: Option<web_sys::EventTarget>) -> String {
    use wasm_bindgen::JsCast;
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|e| e.id())
        .unwrap_or_default()
}

/// Puts the caret of the JSON view where an undo or redo changed the text, once it shows it.
fn place_caret(at: u32) {
    use wasm_bindgen::JsCast;
    leptos::prelude::request_animation_frame(move || {
        let doc = leptos::prelude::document();
        let focused = doc.active_element().map(|e| e.id()) == Some("config".into());
        if let Some(el) = doc
            .get_element_by_id("config")
            .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        {
            if focused {
                let _ = el.set_selection_range(at, at);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typing() -> Edit {
        Edit::Typing("config".into())
    }

    #[test]
    fn typing_in_another_field_is_a_new_step() {
        let mut h = History::new("{}");
        h.record("{\"a\": 1}", typing(), 0.0);
        h.record(
            "{\"a\": 1, \"b\": 2}",
            Edit::Typing("field-b".into()),
            200.0,
        );
        h.record(
            "{\"a\": 1, \"b\": 23}",
            Edit::Typing("field-b".into()),
            400.0,
        );
        assert_eq!(h.undo().as_deref(), Some("{\"a\": 1}"));
        assert_eq!(h.undo().as_deref(), Some("{}"));
    }

    #[test]
    fn typing_coalesces_and_a_fix_is_its_own_step() {
        let mut h = History::new("{}");
        assert!(!h.can_undo());
        assert!(h.record("{\"a", typing(), 0.0));
        assert!(h.record("{\"a\": 1", typing(), 300.0));
        assert!(h.record("{\"a\": 1}", typing(), 600.0));
        // A pause, then more typing: a second step.
        assert!(h.record("{\"a\": 12}", typing(), 5000.0));
        // A fix right after typing is still its own step.
        assert!(h.record("{\"a\": 128}", Edit::Discrete, 5100.0));
        assert!(
            !h.record("{\"a\": 128}", Edit::Discrete, 5200.0),
            "no change"
        );
        assert_eq!(h.undo().as_deref(), Some("{\"a\": 12}"));
        assert_eq!(h.undo().as_deref(), Some("{\"a\": 1}"));
        assert_eq!(h.undo().as_deref(), Some("{}"));
        assert_eq!(h.undo(), None);
        assert_eq!(h.redo().as_deref(), Some("{\"a\": 1}"));
        assert_eq!(h.redo().as_deref(), Some("{\"a\": 12}"));
        // A new change drops what could be redone.
        assert!(h.record("{\"b\": 0}", Edit::Discrete, 6000.0));
        assert!(!h.can_redo());
        assert_eq!(h.undo().as_deref(), Some("{\"a\": 12}"));
    }

    #[test]
    fn typing_after_an_undo_starts_a_new_step() {
        let mut h = History::new("a");
        h.record("ab", typing(), 0.0);
        h.undo();
        h.record("ac", typing(), 100.0);
        assert_eq!(h.undo().as_deref(), Some("a"));
        assert_eq!(h.redo().as_deref(), Some("ac"));
    }

    #[test]
    fn the_history_is_bounded() {
        let mut h = History::new("");
        for i in 0..(LIMIT + 50) {
            h.record(&i.to_string(), Edit::Discrete, i as f64);
        }
        let mut steps = 0;
        while h.undo().is_some() {
            steps += 1;
        }
        assert_eq!(steps, LIMIT);
    }

    #[test]
    fn the_caret_goes_where_the_texts_differ() {
        assert_eq!(first_difference("{\"a\": 100}", "{\"a\": 128}"), 7);
        assert_eq!(first_difference("日本", "日本語"), 6);
        assert_eq!(first_difference("same", "same"), 4);
    }
}
