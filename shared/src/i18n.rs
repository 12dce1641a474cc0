//! Bilingual text: every user-facing message exists in English and Simplified Chinese.

use serde::{Deserialize, Serialize};

/// A language the UI and the CLI speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl std::str::FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Lang::En),
            "zh" | "zh-cn" | "zh_cn" | "chinese" => Ok(Lang::Zh),
            other => Err(format!("unknown language '{other}' (use en or zh)")),
        }
    }
}

/// Longest key or path a message quotes whole (a longer one keeps its start and end).
pub const MAX_SHOWN: usize = 160;

/// A key or dotted path as a message quotes it: whole up to [`MAX_SHOWN`] bytes, else its
/// start and end around "…". A path can hold a user's key of any length, and one path may be
/// quoted in hundreds of messages: quoted whole, a 300 KB key made a 900 MB answer.
pub fn shown(key: &str) -> std::borrow::Cow<'_, str> {
    if key.len() <= MAX_SHOWN {
        return std::borrow::Cow::Borrowed(key);
    }
    let mut head = MAX_SHOWN * 2 / 3;
    while !key.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = key.len() - (MAX_SHOWN - head);
    while !key.is_char_boundary(tail) {
        tail += 1;
    }
    std::borrow::Cow::Owned(format!("{}…{}", &key[..head], &key[tail..]))
}

/// Longest message text kept (each language): a safety net behind [`shown`].
pub const MAX_MESSAGE: usize = 4096;

/// `text` cut to [`MAX_MESSAGE`] bytes at a character boundary, with "…", its memory given back.
pub fn bounded(mut text: String) -> String {
    if text.len() > MAX_MESSAGE {
        let mut cut = MAX_MESSAGE;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
        text.shrink_to_fit();
    }
    text
}

/// One message in both languages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Text {
        Text {
            en: en.into(),
            zh: zh.into(),
        }
    }
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}
