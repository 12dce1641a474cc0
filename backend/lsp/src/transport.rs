//! The language server's stdio transport, bounded: `lsp-server`'s own reader trusts
//! `Content-Length` and resizes its buffer to it before reading a byte (`9223372036854775807`
//! aborts the process, `2500000000` allocates 2.4 GB). Here a frame over [`MAX_FRAME`] is
//! refused from its header, before anything is allocated, and the server stops with an error
//! naming it; header lines are bounded too. Writing uses `lsp-server`'s own framing.

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::thread;

/// Largest message body accepted (a 1 MiB config as JSON-RPC is a few MiB).
pub const MAX_FRAME: usize = 64 << 20;
/// Longest header line accepted.
const MAX_HEADER_LINE: usize = 1024;

/// The reader and writer threads of a connection.
pub struct IoThreads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both; the reader's error (a refused frame, a broken pipe) first.
    pub fn join(self) -> io::Result<()> {
        let r = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reader panicked")));
        let w = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")));
        r.and(w)
    }
}

/// A connection over stdin/stdout with bounded frames.
pub fn stdio() -> (Connection, IoThreads) {
    let (writer_sender, writer_receiver) = bounded::<Message>(0);
    let writer = thread::Builder::new()
        .name("LspWriter".into())
        .spawn(move || {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            for msg in writer_receiver {
                msg.write(&mut out)?;
                out.flush()?;
            }
            Ok(())
        })
        .expect("a thread starts");
    let (reader_sender, reader_receiver) = bounded::<Message>(0);
    let reader = thread::Builder::new()
        .name("LspReader".into())
        .spawn(move || {
            let stdin = io::stdin();
            read_loop(&mut stdin.lock(), &reader_sender)
        })
        .expect("a thread starts");
    (
        Connection {
            sender: writer_sender,
            receiver: reader_receiver,
        },
        IoThreads { reader, writer },
    )
}

fn read_loop(input: &mut impl BufRead, to: &Sender<Message>) -> io::Result<()> {
    while let Some(msg) = read_message(input)? {
        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
        if to.send(msg).is_err() {
            break;
        }
        if exit {
            break;
        }
    }
    Ok(())
}

/// Reads one framed message: `None` at the end of the input; an error for a frame over
/// [`MAX_FRAME`], a header without `Content-Length`, or a body that is not a JSON-RPC message.
pub fn read_message(input: &mut impl BufRead) -> io::Result<Option<Message>> {
    let mut size: Option<usize> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return if first {
                Ok(None)
            } else {
                Err(invalid("the input ended inside a header"))
            };
        }
        first = false;
        if line.len() > MAX_HEADER_LINE {
            return Err(invalid(&format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            )));
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(invalid(&format!("a header line without `:`: {line}")));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let v = value.trim();
            let len: u128 = v
                .parse()
                .map_err(|_| invalid(&format!("Content-Length `{v}` is not a number")))?;
            if len > MAX_FRAME as u128 {
                return Err(invalid(&format!(
                    "Content-Length {len} is over the {MAX_FRAME}-byte limit of a message: refused before reading it"
                )));
            }
            size = Some(len as usize);
        }
    }
    let size = size.ok_or_else(|| invalid("a message without Content-Length"))?;
    // Read what arrives, at most `size`: a claimed size the input never delivers costs nothing.
    let mut body = Vec::new();
    input.by_ref().take(size as u64).read_to_end(&mut body)?;
    if body.len() < size {
        return Err(invalid("the input ended inside a message"));
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| invalid(&format!("not a JSON-RPC message: {e}")))
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    #[test]
    fn frames_are_read_and_oversized_ones_refused_before_allocation() {
        let msg = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let mut input = io::Cursor::new(frame(msg));
        let got = read_message(&mut input).unwrap().unwrap();
        assert!(matches!(got, Message::Notification(n) if n.method == "exit"));
        assert!(read_message(&mut input).unwrap().is_none());
        for len in ["9223372036854775807", "2500000000", "67108865"] {
            let mut input =
                io::Cursor::new(format!("Content-Length: {len}\r\n\r\n{{}}").into_bytes());
            let e = read_message(&mut input).unwrap_err().to_string();
            assert!(e.contains("over the 67108864-byte limit"), "{e}");
        }
        let mut bad = io::Cursor::new(b"Content-Length: x\r\n\r\n".to_vec());
        assert!(read_message(&mut bad).is_err());
        let mut long = io::Cursor::new(vec![b'a'; 5000]);
        assert!(read_message(&mut long)
            .unwrap_err()
            .to_string()
            .contains("header line"));
        // A claimed size the input never delivers: an error, not a hang or a big buffer.
        let mut short = io::Cursor::new(b"Content-Length: 60000000\r\n\r\n{}".to_vec());
        assert!(read_message(&mut short)
            .unwrap_err()
            .to_string()
            .contains("ended inside"));
    }
}
