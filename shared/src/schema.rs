//! The JSON Schema generated from the registry.
