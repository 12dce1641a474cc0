//! Starting-point configs.
