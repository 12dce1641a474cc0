//! Reading what DeepSpeed reports while it trains, without touching the training process:
//!
//! - [`LineTail`]: a text file followed line by line (Slurm's job output).
//! - [`CsvTail`]: the CSV monitor's files (`P/J/Train_Samples_lr.csv`, ...), tailed as they
//!   grow. Lines end in CRLF; `step` is global samples; a file reused by a second run repeats
//!   its header in the middle; the last line may be half written when read.
//! - [`parse_line`]: DeepSpeed's progress lines on stdout (`steps_per_print` with
//!   `log_level: info`), its wall-clock breakdown, and the built-in workload's result line.
//!
//! A file a job wrote is read through `read_job_file`: no link at any component, no FIFO, and
//! a bounded number of bytes, whatever the job planted there.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// One value read from DeepSpeed's output.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub name: String,
    pub step: i64,
    pub value: f64,
}

/// The metric name of a CSV monitor file: `Train_Samples_lr.csv` with header `step,lr` is
/// `Train/Samples/lr` (DeepSpeed writes the tag with `/` turned into `_` in the file name).
pub fn series_name(file_stem: &str, column: &str) -> String {
    match file_stem.strip_suffix(column) {
        Some(prefix) if !prefix.is_empty() => {
            format!(
                "{}/{column}",
                prefix.trim_end_matches('_').replace('_', "/")
            )
        }
        _ => column.to_string(),
    }
}

/// Follows every `*.csv` file in one directory, remembering how far each was read.
#[derive(Debug)]
pub struct CsvTail {
    dir: PathBuf,
    files: HashMap<PathBuf, FileTail>,
}

#[derive(Debug, Default)]
struct FileTail {
    offset: u64,
    /// Bytes after the last newline, kept until the line is complete.
    partial: Vec<u8>,
    column: Option<String>,
}

impl CsvTail {
    pub fn new(dir: impl Into<PathBuf>) -> CsvTail {
        CsvTail {
            dir: dir.into(),
            files: HashMap::new(),
        }
    }

    /// Reads what was appended since the last call. A missing directory is not an error: the
    /// monitor creates it at the first step.
    pub fn poll(&mut self) -> Vec<Sample> {
        let mut out = Vec::new();
        // The job writes here: a directory swapped for a link elsewhere is not followed.
        if !is_real_path(&self.dir) {
            return out;
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return out;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "csv"))
            .collect();
        paths.sort();
        for p in paths {
            let tail = self.files.entry(p.clone()).or_default();
            if let Ok(bytes) = read_job_file(&p, tail.offset, 4 << 20) {
                tail.offset += bytes.len() as u64;
                out.extend(tail.feed(&p, &bytes));
            }
        }
        out
    }
}

/// Whether `dir` exists and no component of it is a symbolic link (its canonical form is
/// itself, `.` components aside). Job files live under directories the job can write.
fn is_real_path(dir: &Path) -> bool {
    let plain: PathBuf = dir
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    dir.canonicalize().is_ok_and(|real| real == plain)
}

/// Opens a file a job may have written, as [`read_job_file`] reads it: no link at any
/// component (the job can swap a directory for a link at any moment), never blocking on a
/// FIFO, only a regular file. For whatever reads a job's directory after it (`backup`).
pub fn open_job_file(path: &Path) -> std::io::Result<std::fs::File> {
    if !path.parent().is_some_and(is_real_path) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a directory on the way is a link",
        ));
    }
    open_no_follow(path)
}

/// Opens a file the job may have written: not through a symbolic link at its last component,
/// never blocking on a FIFO, and only a regular file (not `/dev/zero`, not a socket).
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(f)
}

/// At most `max` bytes of `path` from `offset`: a file a job may have written, read without
/// following a link at any component and without waiting on a FIFO (only a regular file).
pub(crate) fn read_job_file(path: &Path, offset: u64, max: u64) -> std::io::Result<Vec<u8>> {
    let mut f = open_job_file(path)?;
    f.seek(SeekFrom::Start(offset))?;
    let mut buf = Vec::new();
    f.take(max).read_to_end(&mut buf)?;
    Ok(buf)
}

impl FileTail {
    fn feed(&mut self, path: &Path, bytes: &[u8]) -> Vec<Sample> {
        self.partial.extend_from_slice(bytes);
        let mut out = Vec::new();
        let Some(last_nl) = self.partial.iter().rposition(|&b| b == b'\n') else {
            return out;
        };
        let complete: Vec<u8> = self.partial.drain(..=last_nl).collect();
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for line in String::from_utf8_lossy(&complete).lines() {
            let line = line.trim_end_matches('\r').trim();
            if line.is_empty() {
                continue;
            }
            let Some((a, b)) = line.split_once(',') else {
                continue;
            };
            match (a.trim().parse::<i64>(), b.trim().parse::<f64>()) {
                // NaN and infinities too: the reporter notes a non-finite loss, sends none.
                (Ok(step), Ok(value)) => {
                    if let Some(col) = &self.column {
                        out.push(Sample {
                            name: series_name(&stem, col),
                            step,
                            value,
                        });
                    }
                }
                // A header (first line, or repeated by a second run into the same file).
                _ if a.trim() == "step" => self.column = Some(b.trim().to_string()),
                _ => {}
            }
        }
        out
    }
}

/// Follows one text file as it grows, line by line; an unfinished last line waits for its end.
#[derive(Debug)]
pub struct LineTail {
    path: PathBuf,
    offset: u64,
    lines: LineSplitter,
}

impl LineTail {
    pub fn new(path: impl Into<PathBuf>) -> LineTail {
        LineTail {
            path: path.into(),
            offset: 0,
            lines: LineSplitter::default(),
        }
    }

    /// Complete lines appended since the last call (none while the file does not exist); at
    /// most 4 MiB of the file is read per call.
    pub fn poll(&mut self) -> Vec<String> {
        let Ok(bytes) = read_job_file(&self.path, self.offset, 4 << 20) else {
            return Vec::new();
        };
        self.offset += bytes.len() as u64;
        self.lines.push(&bytes)
    }
}

/// Longest log line kept whole, in bytes; a longer one is cut into pieces of this size.
pub const MAX_LINE: usize = 8192;

/// Splits program output into lines on `\n`, `\r\n` and a lone `\r` (progress bars redraw
/// with `\r`), never holding more than [`MAX_LINE`] bytes of an unfinished line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    /// The last byte seen was `\r` (a `\n` right after it ends nothing new).
    after_cr: bool,
}

impl LineSplitter {
    /// The lines completed by `bytes`.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    out.push(self.take());
                }
                _ => {
                    self.after_cr = false;
                    self.partial.push(b);
                    if self.partial.len() >= MAX_LINE {
                        out.push(self.take());
                    }
                }
            }
        }
        out
    }

    /// What is left of an unfinished last line, if anything.
    pub fn finish(&mut self) -> Option<String> {
        (!self.partial.is_empty()).then(|| self.take())
    }

    fn take(&mut self) -> String {
        let line = String::from_utf8_lossy(&self.partial).into_owned();
        self.partial.clear();
        line
    }
}

/// What one stdout line of DeepSpeed (or of the built-in workload) says, if anything.
///
/// `breakdown_steps` counts the wall-clock breakdown lines seen so far: they carry no step, so
/// the n-th one is optimizer step n.
pub fn parse_line(line: &str, breakdown_steps: &mut i64) -> Vec<Sample> {
    let mut out = Vec::new();
    if let Some(json) = line.strip_prefix("ds-studio-result ") {
        if let Ok(serde_json::Value::Object(m)) = serde_json::from_str(json.trim()) {
            let steps = m.get("steps").and_then(|v| v.as_i64()).unwrap_or(0);
            for (k, v) in m {
                if let Some(f) = v.as_f64().filter(|f| f.is_finite()) {
                    out.push(Sample {
                        name: format!("result/{k}"),
                        step: steps,
                        value: f,
                    });
                }
            }
        }
        return out;
    }
    // `... global_step=5, RunningAvgSamplesPerSec=956.87, CurrSamplesPerSec=1174.53,
    //  MemAllocated=0.77GB, MaxMemAllocated=0.77GB`
    if let Some(i) = line.find("global_step=") {
        let rest = &line[i..];
        let step = field(rest, "global_step=").and_then(|v| v.parse::<i64>().ok());
        if let Some(step) = step {
            for (key, name) in [
                ("CurrSamplesPerSec=", "samples_per_sec"),
                ("RunningAvgSamplesPerSec=", "samples_per_sec_avg"),
                ("MemAllocated=", "mem_allocated_gb"),
                ("MaxMemAllocated=", "max_mem_allocated_gb"),
            ] {
                if let Some(v) = field_exact(rest, key)
                    .and_then(|v| v.trim_end_matches("GB").parse::<f64>().ok())
                    .filter(|v| v.is_finite())
                {
                    out.push(Sample {
                        name: name.into(),
                        step,
                        value: v,
                    });
                }
            }
        }
        return out;
    }
    // `[Rank 0] time (ms) | fwd: 11.04 | bwd: 3.82 | bwd_inner: 1.44 | ... | step: 3.99`
    // (the `*_microstep` lines are per micro step and skipped).
    if let Some(i) = line.find("time (ms) |") {
        let rest = &line[i + "time (ms) |".len()..];
        if rest.contains("_microstep") {
            return out;
        }
        *breakdown_steps += 1;
        for part in rest.split('|') {
            if let Some((k, v)) = part.split_once(':') {
                if let Ok(v) = v.trim().parse::<f64>() {
                    out.push(Sample {
                        name: format!("time_ms/{}", k.trim()),
                        step: *breakdown_steps,
                        value: v,
                    });
                }
            }
        }
    }
    out
}

/// The value after `key` up to the next `,` or space (the key may be a suffix of another).
fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let i = s.find(key)? + key.len();
    let v = &s[i..];
    let end = v.find([',', ' ', ']']).unwrap_or(v.len());
    Some(&v[..end])
}

/// Like [`field`], but `key` must start a field (`MemAllocated=` is not `MaxMemAllocated=`).
fn field_exact<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = s[from..].find(key) {
        let at = from + i;
        let before = s[..at].chars().last();
        if before.is_none_or(|c| c == ' ' || c == ',' || c == '/') {
            return field(&s[at..], key);
        }
        from = at + key.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_files_are_read_only_when_real_regular_files() {
        let dir = std::env::temp_dir().join(format!("ds-studio-tail-{}", std::process::id()));
        let csv = dir.join("monitor/job");
        std::fs::create_dir_all(&csv).unwrap();
        std::fs::write(csv.join("Train_Samples_lr.csv"), "step,lr\r\n8,0.001\r\n").unwrap();
        // A link to a file the job must not read, and a FIFO that would block a reader.
        std::fs::write(dir.join("secret.txt"), "step,secret\n1,42\n").unwrap();
        std::os::unix::fs::symlink(dir.join("secret.txt"), csv.join("Train_Samples_x.csv"))
            .unwrap();
        let fifo =
            std::ffi::CString::new(csv.join("Train_Samples_f.csv").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let mut tail = CsvTail::new(&csv);
        let got = tail.poll();
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].name, "Train/Samples/lr");
        // A monitor directory swapped for a link is not followed at all.
        let linked = dir.join("linked");
        std::os::unix::fs::symlink(&csv, &linked).unwrap();
        assert!(CsvTail::new(&linked).poll().is_empty());
        let mut out = LineTail::new(dir.join("out-link"));
        std::os::unix::fs::symlink("/proc/self/environ", dir.join("out-link")).unwrap();
        assert!(out.poll().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn output_splits_on_cr_and_lf_and_long_lines_are_cut() {
        let mut l = LineSplitter::default();
        assert_eq!(l.push(b"a\r\nb\rc"), vec!["a", "b"]);
        assert_eq!(l.push(b"\n"), vec!["c"]);
        // A progress bar redrawn with \r: each redraw is a line.
        assert_eq!(l.push(b"10%\r20%\r"), vec!["10%", "20%"]);
        // 20 KiB without a newline: never held whole.
        let big = vec![b'x'; 20 * 1024];
        let lines = l.push(&big);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|x| x.len() == MAX_LINE));
        assert_eq!(l.finish().map(|x| x.len()), Some(20 * 1024 - 2 * MAX_LINE));
        assert_eq!(l.finish(), None);
        // A multi-byte character cut at the limit does not panic.
        let mut l = LineSplitter::default();
        let text = "损".repeat(MAX_LINE);
        assert!(!l.push(text.as_bytes()).is_empty());
    }

    #[test]
    fn series_names_follow_deepspeed_tags() {
        assert_eq!(series_name("Train_Samples_lr", "lr"), "Train/Samples/lr");
        assert_eq!(
            series_name(
                "Train_Samples_elapsed_time_ms_forward",
                "elapsed_time_ms_forward"
            ),
            "Train/Samples/elapsed_time_ms_forward"
        );
        assert_eq!(series_name("loss", "loss"), "loss");
    }

    #[test]
    fn csv_tail_handles_crlf_partial_lines_and_repeated_headers() {
        let dir = std::env::temp_dir().join(format!("ds-csv-tail-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("Train_Samples_lr.csv");
        let mut tail = CsvTail::new(&dir);
        assert!(tail.poll().is_empty());
        std::fs::write(&f, "step,lr\r\n4,0.001\r\n8,0.0").unwrap();
        let first = tail.poll();
        assert_eq!(
            first,
            vec![Sample {
                name: "Train/Samples/lr".into(),
                step: 4,
                value: 0.001
            }]
        );
        use std::io::Write;
        let mut h = std::fs::OpenOptions::new().append(true).open(&f).unwrap();
        h.write_all(b"02\r\nstep,lr\r\n4,0.5\r\n").unwrap();
        let next = tail.poll();
        assert_eq!(next.len(), 2, "{next:?}");
        assert_eq!((next[0].step, next[0].value), (8, 0.002));
        assert_eq!((next[1].step, next[1].value), (4, 0.5));
        assert!(tail.poll().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn progress_lines_become_samples() {
        let mut n = 0;
        let l = "[2026-11-21 17:10:32,603] [INFO] [timer.py:264:stop] epoch=0/micro_step=5/global_step=5, RunningAvgSamplesPerSec=956.87, CurrSamplesPerSec=1174.53, MemAllocated=0.77GB, MaxMemAllocated=0.79GB";
        let s = parse_line(l, &mut n);
        let get = |k: &str| s.iter().find(|x| x.name == k).map(|x| (x.step, x.value));
        assert_eq!(get("samples_per_sec"), Some((5, 1174.53)));
        assert_eq!(get("samples_per_sec_avg"), Some((5, 956.87)));
        assert_eq!(get("mem_allocated_gb"), Some((5, 0.77)));
        assert_eq!(get("max_mem_allocated_gb"), Some((5, 0.79)));
        let t = "[Rank 0] time (ms) | fwd: 11.04 | bwd: 3.82 | bwd_inner: 1.44 | bwd_allreduce: 2.34 | step: 3.99";
        let s = parse_line(t, &mut n);
        assert_eq!(s.len(), 5);
        assert_eq!(
            (s[0].name.as_str(), s[0].step, s[0].value),
            ("time_ms/fwd", 1, 11.04)
        );
        let micro = "[Rank 0] time (ms) | fwd_microstep: 3.58 | bwd_microstep: 5.55";
        assert!(parse_line(micro, &mut n).is_empty());
        assert_eq!(n, 1);
        let r = parse_line(
            r#"ds-studio-result {"params": 136960, "steps": 20, "samples_per_sec": 269.0, "peak_memory_mb": 666.1}"#,
            &mut n,
        );
        assert!(r
            .iter()
            .any(|x| x.name == "result/peak_memory_mb" && x.value == 666.1 && x.step == 20));
        assert!(parse_line("step=5, skipped=0, lr=[0.001]", &mut n).is_empty());
    }
}
