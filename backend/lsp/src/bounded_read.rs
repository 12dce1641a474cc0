//! Reading a text that may be hostile (a path from a training file, `/dev/zero`, an endless
//! pipe, a huge settings file) with a size cap: at most one byte past the cap is read.

use std::io::{self, Read};

/// The UTF-8 text of `input`, or an error when it is longer than `max` bytes (the message:
/// `longer than MAX bytes` and then `why`).
pub fn text(input: impl Read, max: u64, why: &str) -> io::Result<String> {
    let mut bytes = Vec::new();
    input.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::other(format!("longer than {max} bytes{why}")));
    }
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_endless_input_costs_one_byte_past_the_cap() {
        let endless = std::io::repeat(b'a');
        let e = super::text(endless, 1 << 20, ": too long").unwrap_err();
        assert_eq!(e.to_string(), "longer than 1048576 bytes: too long");
        assert_eq!(super::text(&b"ok"[..], 2, "").unwrap(), "ok");
        assert!(super::text(&[0xff_u8][..], 2, "").is_err());
    }
}
