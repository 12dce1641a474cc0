//! JSON pointers (RFC 6901): the address every diagnostic and fix uses.

/// Splits `/a/b~1c` into `["a", "b/c"]`; `""` is the root (no tokens).
pub fn split_pointer(pointer: &str) -> Vec<String> {
    pointer_tokens(pointer).map(|t| t.into_owned()).collect()
}

/// The unescaped tokens of a pointer, borrowed where nothing was escaped (the common case:
/// locating every diagnostic walks its pointer).
pub fn pointer_tokens(pointer: &str) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
    let rest = if pointer.is_empty() {
        None
    } else {
        Some(pointer.trim_start_matches('/'))
    };
    rest.into_iter().flat_map(|r| r.split('/')).map(|t| {
        if t.contains('~') {
            t.replace("~1", "/").replace("~0", "~").into()
        } else {
            t.into()
        }
    })
}

/// Escapes one reference token.
pub fn escape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1").into()
    } else {
        token.into()
    }
}

/// `pointer_join("/a", "b")` is `/a/b`.
pub fn pointer_join(parent: &str, token: &str) -> String {
    // Concatenated, not `format!`: the walk builds one pointer per member of a document.
    let token = escape_token(token);
    let mut out = String::with_capacity(parent.len() + 1 + token.len());
    out.push_str(parent);
    out.push('/');
    out.push_str(&token);
    out
}
