//! The `lsp` target: a whole stdin stream for the language server's framing
//! ([`ds_studio_lsp::transport::read_message`]), read to its end or its first error, as the reader
//! thread does. Streams are real JSON-RPC frames (initialize, didOpen with a config, hover) with
//! their headers and bodies mutated, and generated ones: absurd `Content-Length`s, endless header
//! lines, many tiny frames, a length longer than what follows.

use super::{mutate, Rng};
use ds_studio_lsp::transport::read_message;

const BODIES: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/ds.json","languageId":"json","version":1,"text":"{\"train_batch_size\": 8, \"zero_optimization\": {\"stage\": 3}}"}}}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/ds.json"},"position":{"line":0,"character":3}}}"#,
    r#"{"jsonrpc":"2.0","id":3,"result":null}"#,
    r#"{"jsonrpc":"2.0","method":"exit"}"#,
];

const TOKENS: &[&str] = &[
    "Content-Length: ",
    "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n",
    "\r\n",
    "\n",
    ":",
    "18446744073709551616",
    "9223372036854775807",
    "-1",
    "0",
    "{",
    "}",
    "\"",
    "\u{0}",
    "\u{feff}",
];

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// A stream of frames: mutated real ones, or (when `generate`) one built to hurt a naive reader.
pub fn input(rng: &mut Rng, generate: bool) -> Vec<u8> {
    if !generate {
        let stream: String = (0..1 + rng.below(4))
            .map(|_| frame(rng.pick::<&str>(BODIES)))
            .collect();
        return mutate(rng, stream.as_bytes(), TOKENS);
    }
    let n = 1 + rng.below(100_000);
    match rng.below(5) {
        0 => format!(
            "Content-Length: {}\r\n\r\n{{}}",
            rng.pick(&[
                "2500000000",
                "9223372036854775807",
                "99999999999999999999999"
            ])
        )
        .into_bytes(),
        1 => format!("X-Long: {}\r\n", "a".repeat(n * 10)).into_bytes(),
        2 => "Content-Type: x\r\n".repeat(n).into_bytes(),
        3 => frame(BODIES[3]).repeat(n.min(20_000)).into_bytes(),
        _ => format!("Content-Length: {}\r\n\r\n{}", n * 4, rng.pick(BODIES)).into_bytes(),
    }
}

/// Reads every message of the stream, as the reader thread does, until the end or an error.
pub fn exercise(stream: &[u8]) {
    let mut input = std::io::BufReader::new(stream);
    while let Ok(Some(msg)) = read_message(&mut input) {
        std::hint::black_box(msg);
    }
}
