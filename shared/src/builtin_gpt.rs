//! The built-in GPT workload's sizes (`backend/runner/python/gpt_train.py`'s `SIZES`): what the
//! memory model, the estimates and the job wire types all know of the model the studio trains
//! when a job names no script. Part of the model layer; the API re-exports it
//! (`api::GptSize`, `api::BUILTIN_SIZES`).

/// Sizes of the built-in GPT workload, smallest first.
pub const BUILTIN_SIZES: [&str; 5] = ["tiny", "small", "medium", "large", "xl"];

/// The architecture of a size of the built-in GPT workload (`backend/runner/python/gpt_train.py`'s
/// `SIZES`: keep both in step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GptSize {
    pub layers: u64,
    pub d_model: u64,
    pub heads: u64,
    pub vocab: u64,
    pub seq: u64,
}

impl GptSize {
    pub fn of(size: &str) -> Option<GptSize> {
        let (layers, d_model, heads, vocab, seq) = match size {
            "tiny" => (2, 64, 4, 512, 64),
            "small" => (6, 512, 8, 8192, 256),
            "medium" => (12, 768, 12, 32000, 512),
            "large" => (24, 1024, 16, 32000, 1024),
            "xl" => (24, 2048, 16, 32000, 1024),
            _ => return None,
        };
        Some(GptSize {
            layers,
            d_model,
            heads,
            vocab,
            seq,
        })
    }

    /// Parameters: tied token embedding, positions, per block 12·d² + 13·d (attention, MLP, two
    /// layer norms), the final layer norm.
    pub fn params(&self) -> u64 {
        let d = self.d_model;
        self.vocab * d + self.seq * d + self.layers * (12 * d * d + 13 * d) + 2 * d
    }
}
