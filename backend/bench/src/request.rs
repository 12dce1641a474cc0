//! Request bodies written out as JSON in a bench, read as the shared API's types.

/// A request body of the shared API types from JSON (the types check it when it runs: a field
/// the server would not take panics here first).
pub fn body<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
    serde_json::from_value(json).expect("a bench's request body is one of the API's types")
}
