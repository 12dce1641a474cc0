//! JSON pointers (RFC 6901): the address every diagnostic and fix uses.

/// Splits `/a/b~1c` into `["a", "b/c"]`; `""` is the root (no tokens).
pub fn split_pointer(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Escapes one reference token.
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `pointer_join("/a", "b")` is `/a/b`.
pub fn pointer_join(parent: &str, token: &str) -> String {
    format!("{parent}/{}", escape_token(token))
}
