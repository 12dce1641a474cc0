//! Who is signed in: the one piece of state every page reads, provided at the app's root.

/// Who is signed in (None: nobody), provided at the root.
#[derive(Clone, Copy)]
pub struct Session(pub leptos::prelude::RwSignal<Option<ds_studio_shared::api::Me>>);
