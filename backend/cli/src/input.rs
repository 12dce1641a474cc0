//! What the commands read: files or stdin (`-`), with a size cap where the input may be
//! hostile, secrets kept in files, and the diagnostic of a file that is not UTF-8.

/// A secret kept in a file (`--admin-token-file`, `--token-file`): its first line, trimmed;
/// `flag` names the option in the error. Warns when other users may read the file.
pub(crate) fn secret_from_file(flag: &str, path: &std::path::Path) -> Result<String, String> {
    use std::os::unix::fs::PermissionsExt;
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("{flag} {}: {e}", path.display()))?;
    if std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0) {
        eprintln!(
            "ds-studio: warning: {} can be read by other users; `chmod 600` it",
            path.display()
        );
    }
    Ok(text.lines().next().unwrap_or("").trim().to_string())
}

/// Reads a file, or stdin for `-`.
pub(crate) fn read_input(path: &str) -> std::io::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
    }
}

/// The text of a file, or of stdin for `-`, refused past `max` bytes (read up to `max` + 1,
/// so `/dev/zero` or an endless pipe costs no more).
pub(crate) fn read_input_limited(path: &str, max: u64) -> std::io::Result<String> {
    let why = ", the most a training file may be";
    if path == "-" {
        ds_studio_lsp::bounded_read::text(std::io::stdin(), max, why)
    } else {
        ds_studio_lsp::bounded_read::text(std::fs::File::open(path)?, max, why)
    }
}

/// The bytes of a file, or of stdin for `-`.
pub(crate) fn read_input_bytes(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)?;
        Ok(b)
    } else {
        std::fs::read(path)
    }
}

/// The diagnostic of a file that is not UTF-8: where the first bad byte is. DeepSpeed (and
/// Python's json) read config files as UTF-8 and stop there with a UnicodeDecodeError.
pub(crate) fn not_utf8(bytes: &[u8], err: std::str::Utf8Error) -> ds_studio_shared::Diagnostic {
    let at = err.valid_up_to();
    let before = std::str::from_utf8(&bytes[..at]).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    let byte = bytes.get(at).copied().unwrap_or(0);
    let mut d = ds_studio_shared::Diagnostic::error(
        "encoding",
        "",
        ds_studio_shared::i18n::Text::new(
            format!("not UTF-8: byte 0x{byte:02x} at offset {at} (line {line}, column {column}); DeepSpeed reads config files as UTF-8 and stops with UnicodeDecodeError (re-save the file as UTF-8)"),
            format!("不是 UTF-8：偏移 {at}（第 {line} 行第 {column} 列）处的字节 0x{byte:02x}；DeepSpeed 以 UTF-8 读取配置文件，会报 UnicodeDecodeError（请以 UTF-8 重新保存）"),
        ),
    );
    d.line = Some(line);
    d.column = Some(column);
    d
}
