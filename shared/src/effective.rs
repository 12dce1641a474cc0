//! The effective config (defaults filled, batch triple derived) — see `effective` tests.
