//! Where the book says more: the header's Help link opens the book's page for the studio page
//! the user is on, and each diagnostic's code links to its entry in the diagnostic codes
//! reference. The server serves the built book at `/docs` (`cargo xtask docs`); the user's part
//! and the codes have a Chinese page for every English one (`/docs/zh/…`), which `cargo xtask
//! docs --check` keeps true.

use ds_studio_shared::i18n::Lang;

/// Where the server serves the book.
pub const BOOK: &str = "/docs";

/// The book's page for the studio's page at `path` (a router path), in `lang`.
pub fn page_for(path: &str, lang: Lang) -> String {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let page = match parts.as_slice() {
        [""] => "using/editor.html",
        ["signin"] => "using/quick-start.html",
        ["templates"] | ["shared", ..] => "using/templates.html",
        ["templates", _, "sweep"] | ["sweeps", ..] => "using/sweeps.html",
        ["templates", _, "diff", ..] | ["templates", _, "v", ..] => "using/templates.html",
        ["templates", _] | ["settings"] => "using/editor.html",
        ["jobs", ..] => "using/jobs.html",
        ["team"] => "operating/users-and-roles.html",
        _ => "index.html",
    };
    format!("{BOOK}/{}{page}", prefix(lang))
}

/// The entry of diagnostic `code` in the codes reference, in `lang`.
pub fn code_link(code: &str, lang: Lang) -> String {
    format!("{BOOK}/{}reference/diagnostics.html#{code}", prefix(lang))
}

fn prefix(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "zh/",
        Lang::En => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_studio_page_has_its_book_page() {
        assert_eq!(page_for("/", Lang::En), "/docs/using/editor.html");
        assert_eq!(
            page_for("/templates/7", Lang::En),
            "/docs/using/editor.html"
        );
        assert_eq!(
            page_for("/templates/7/sweep", Lang::Zh),
            "/docs/zh/using/sweeps.html"
        );
        assert_eq!(
            page_for("/templates/7/diff/1/2", Lang::En),
            "/docs/using/templates.html"
        );
        assert_eq!(
            page_for("/jobs/compare/1,2", Lang::En),
            "/docs/using/jobs.html"
        );
        assert_eq!(page_for("/jobs/3", Lang::Zh), "/docs/zh/using/jobs.html");
        assert_eq!(
            page_for("/team", Lang::Zh),
            "/docs/zh/operating/users-and-roles.html"
        );
        assert_eq!(page_for("/nowhere/at/all", Lang::En), "/docs/index.html");
    }

    #[test]
    fn a_code_links_to_its_entry() {
        assert_eq!(
            code_link("unknown-key", Lang::En),
            "/docs/reference/diagnostics.html#unknown-key"
        );
        assert_eq!(
            code_link("batch-mismatch", Lang::Zh),
            "/docs/zh/reference/diagnostics.html#batch-mismatch"
        );
    }
}
