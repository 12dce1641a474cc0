//! `ds-studio backup` and `ds-studio restore`: a backup of the studio while it runs, and a
//! data directory (or PostgreSQL database) made from one.
//!
//! A backup is one `.tar.gz`:
//! - `ds-studio-backup.json`: the [`Manifest`] (format, ds-studio's version, the database's
//!   dialect and what it holds: [`Inventory`]);
//! - `ds-studio.db`: SQLite's consistent copy (`VACUUM INTO`, see `store::snapshot`), or
//!   `ds-studio.pgdump`: `pg_dump --format=custom` of a PostgreSQL database;
//! - `jobs/…`: the local runner's job directories (logs, reports, checkpoints), copied after
//!   the database, each file as long as it was when the copy reached it.
//!
//! Nothing is overwritten: `backup` refuses an existing `--out` (it writes `FILE.partial` and
//! renames it when complete), `restore` refuses a data directory that holds a database or a
//! database that has tables. `restore` unpacks beside the target, checks the copy (SQLite's
//! `integrity_check`, the counts the manifest promised), then moves it into place and applies
//! the migrations of this binary (the upgrade path).

use ds_studio_server::store::snapshot::Inventory;
use ds_studio_server::store::Store;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The archive's manifest.
pub const MANIFEST: &str = "ds-studio-backup.json";
/// The SQLite copy in the archive.
const SQLITE_FILE: &str = "ds-studio.db";
/// The PostgreSQL dump in the archive.
const PG_FILE: &str = "ds-studio.pgdump";
/// This format's number; a newer one is refused by name.
const FORMAT: u32 = 1;

#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// The running server's data directory (its SQLite database and job files).
    #[arg(long, default_value = "./data")]
    pub data: PathBuf,
    /// `postgres://user@host/db`: back up this PostgreSQL database (with pg_dump) instead.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// The backup file to write (`.tar.gz`, readable by its owner only); it must not exist.
    #[arg(long)]
    pub out: PathBuf,
    /// The local runner's job directories (default: DATA/jobs).
    #[arg(long)]
    pub jobs_dir: Option<PathBuf>,
    /// Leave the job directories out (the database only).
    #[arg(long)]
    pub no_job_files: bool,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// The backup file (from `ds-studio backup`).
    #[arg(long)]
    pub from: PathBuf,
    /// The new data directory to make (it must not hold a database). Named always: a restore
    /// has no default place.
    #[arg(long, required_unless_present = "database_url")]
    pub data: Option<PathBuf>,
    /// `postgres://user@host/db` of an empty database to restore a PostgreSQL backup into.
    #[arg(long, conflicts_with = "data")]
    pub database_url: Option<String>,
    /// Where the job directories go (default: DATA/jobs); it must be empty or missing.
    #[arg(long)]
    pub jobs_dir: Option<PathBuf>,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

/// What a backup holds, written first in the archive.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub ds_studio: String,
    /// When the database's copy began (RFC 3339).
    pub taken_at: String,
    /// `sqlite` or `postgres`.
    pub database: String,
    pub inventory: Inventory,
    pub job_files: u64,
    pub job_bytes: u64,
}

/// This layer's one error: a sentence for the user.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BackupError(String);

impl From<ds_studio_server::store::StoreError> for BackupError {
    fn from(e: ds_studio_server::store::StoreError) -> Self {
        BackupError(e.to_string())
    }
}

fn io(what: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> BackupError {
    move |e| BackupError(format!("{what}: {e}"))
}

fn runtime() -> Result<tokio::runtime::Runtime, BackupError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(io("cannot start the runtime"))
}

fn postgres_url(url: &Option<String>) -> Option<&str> {
    url.as_deref().filter(|u| !u.is_empty())
}

pub fn backup(args: BackupArgs) -> i32 {
    let started = std::time::Instant::now();
    match take_backup(&args) {
        Ok(m) => {
            if args.format == "json" {
                println!("{}", serde_json::to_string_pretty(&m).unwrap_or_default());
            } else {
                let i = &m.inventory;
                println!(
                    "backed up {} templates ({} versions), {} jobs ({} metric and log lines), {} sweeps, {} users and {} job files ({}) to {} in {:.1} s",
                    i.templates,
                    i.versions,
                    i.jobs,
                    i.job_events,
                    i.sweeps,
                    i.users,
                    m.job_files,
                    human_bytes(m.job_bytes),
                    args.out.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            0
        }
        Err(e) => {
            eprintln!("ds-studio backup: {e}");
            1
        }
    }
}

fn take_backup(args: &BackupArgs) -> Result<Manifest, BackupError> {
    if args.out.exists() {
        return Err(BackupError(format!(
            "{} exists: name a new file (a backup never overwrites one)",
            args.out.display()
        )));
    }
    let partial = with_suffix(&args.out, ".partial");
    let staging = with_suffix(&args.out, ".staging");
    std::fs::create_dir_all(&staging)
        .map_err(io(format!("cannot create {}", staging.display())))?;
    let result = write_backup(args, &partial, &staging);
    let _ = std::fs::remove_dir_all(&staging);
    match result {
        Ok(m) => {
            std::fs::rename(&partial, &args.out).map_err(io(format!(
                "cannot move the backup to {}",
                args.out.display()
            )))?;
            Ok(m)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

fn write_backup(
    args: &BackupArgs,
    partial: &Path,
    staging: &Path,
) -> Result<Manifest, BackupError> {
    let taken_at = ds_studio_server::store::rfc3339(ds_studio_server::store::now_ms());
    let (db_file, inventory, database) = match postgres_url(&args.database_url) {
        Some(url) => {
            let dump = staging.join(PG_FILE);
            pg_dump(url, &dump)?;
            let inventory = runtime()?.block_on(async {
                let store = Store::attach(url).await?;
                let i = store.inventory().await;
                store.close().await;
                i
            })?;
            (dump, inventory, "postgres")
        }
        None => {
            let copy = staging.join(SQLITE_FILE);
            let inventory = runtime()?.block_on(async {
                let store = Store::attach_sqlite(&args.data).await?;
                let i = store.snapshot_sqlite(&copy).await;
                store.close().await;
                i
            })?;
            (copy, inventory, "sqlite")
        }
    };
    // Readable by its owner only: it holds every user's and token's row.
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(partial)
            .map_err(io(format!("cannot create {}", partial.display())))?
    };
    let gz =
        flate2::write::GzEncoder::new(std::io::BufWriter::new(file), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    tar.follow_symlinks(false);
    let name = db_file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(SQLITE_FILE);
    let mut db = std::fs::File::open(&db_file).map_err(io("cannot read the database's copy"))?;
    let mut header = tar::Header::new_gnu();
    header.set_metadata(
        &db.metadata()
            .map_err(io("cannot read the database's copy"))?,
    );
    header.set_mode(0o600);
    tar.append_data(&mut header, name, &mut db)
        .map_err(io("cannot write the database's copy into the backup"))?;
    let (mut job_files, mut job_bytes) = (0, 0);
    if !args.no_job_files {
        let jobs = args
            .jobs_dir
            .clone()
            .unwrap_or_else(|| args.data.join("jobs"));
        if jobs.is_dir() {
            (job_files, job_bytes) = append_tree(&mut tar, &jobs, Path::new("jobs"))?;
        }
    }
    let manifest = Manifest {
        format: FORMAT,
        ds_studio: env!("CARGO_PKG_VERSION").into(),
        taken_at,
        database: database.into(),
        inventory,
        job_files,
        job_bytes,
    };
    let text = serde_json::to_vec_pretty(&manifest).map_err(|e| BackupError(e.to_string()))?;
    let mut header = tar::Header::new_gnu();
    header.set_size(text.len() as u64);
    header.set_mode(0o600);
    header.set_mtime(ds_studio_server::store::now_ms() as u64 / 1000);
    tar.append_data(&mut header, MANIFEST, text.as_slice())
        .map_err(io("cannot write the manifest"))?;
    let gz = tar.into_inner().map_err(io("cannot finish the backup"))?;
    let mut buf = gz.finish().map_err(io("cannot finish the backup"))?;
    buf.flush().map_err(io("cannot finish the backup"))?;
    let file = buf
        .into_inner()
        .map_err(|e| BackupError(format!("cannot finish the backup: {}", e.error())))?;
    file.sync_all()
        .map_err(io("cannot sync the backup to disk"))?;
    Ok(manifest)
}

/// Appends every regular file under `dir` as `under/…`, each exactly as long as it was when
/// reached (a log that grows meanwhile is cut there; one that shrinks is padded), so the
/// archive stays well-formed while jobs write. Links and special files are left out, and a
/// file is opened only where no component of its path is a link
/// (`ds_studio_runner::monitor::open_job_file`).
fn append_tree<W: Write>(
    tar: &mut tar::Builder<W>,
    dir: &Path,
    under: &Path,
) -> Result<(u64, u64), BackupError> {
    let (mut files, mut bytes) = (0, 0);
    // The operator's directory as the kernel resolves it (it may be relative, or under a
    // link of the operator's): beneath it, no link is followed.
    let dir = dir
        .canonicalize()
        .map_err(io(format!("cannot read {}", dir.display())))?;
    let mut stack = vec![(dir, under.to_path_buf())];
    while let Some((from, to)) = stack.pop() {
        let entries = match std::fs::read_dir(&from) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(BackupError(format!("cannot read {}: {e}", from.display()))),
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let name = to.join(entry.file_name());
            if kind.is_dir() {
                stack.push((path, name));
            } else if kind.is_file() {
                // A job writes under these directories: a file or directory it swaps for a
                // link after the listing is not followed out of them.
                let Ok(file) = ds_studio_runner::monitor::open_job_file(&path) else {
                    continue;
                };
                let Ok(meta) = file.metadata() else { continue };
                let len = meta.len();
                let mut header = tar::Header::new_gnu();
                header.set_metadata(&meta);
                header.set_size(len);
                let exact = file.take(len).chain(std::io::repeat(0)).take(len);
                tar.append_data(&mut header, &name, exact)
                    .map_err(io(format!(
                        "cannot copy {} into the backup",
                        path.display()
                    )))?;
                files += 1;
                bytes += len;
            }
        }
    }
    Ok((files, bytes))
}

fn pg_dump(url: &str, to: &Path) -> Result<(), BackupError> {
    let status = std::process::Command::new("pg_dump")
        .args(["--format=custom", "--no-owner", "--no-privileges", "--file"])
        .arg(to)
        .arg(url)
        .status()
        .map_err(|e| {
            BackupError(format!(
                "cannot run pg_dump ({e}): install PostgreSQL's client tools (Debian: postgresql-client), the same major version as the server or newer"
            ))
        })?;
    if !status.success() {
        return Err(BackupError(format!(
            "pg_dump failed ({status}); its message is above"
        )));
    }
    Ok(())
}

pub fn restore(args: RestoreArgs) -> i32 {
    match restore_backup(&args) {
        Ok((m, now)) => {
            if args.format == "json" {
                let out = serde_json::json!({"backup": m, "restored": now});
                println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            } else {
                println!(
                    "restored the backup of {} ({} templates, {} versions, {} jobs, {} metric and log lines, {} job files); start the studio on it with {} (jobs that were running when it was taken show as lost)",
                    m.taken_at,
                    now.templates,
                    now.versions,
                    now.jobs,
                    now.job_events,
                    m.job_files,
                    match (&args.data, postgres_url(&args.database_url)) {
                        (_, Some(url)) => format!("--database-url {}", ds_studio_server::store::redact(url)),
                        (Some(d), None) => format!("--data {}", d.display()),
                        (None, None) => "--data".into(),
                    }
                );
            }
            0
        }
        Err(e) => {
            eprintln!("ds-studio restore: {e}");
            1
        }
    }
}

fn restore_backup(args: &RestoreArgs) -> Result<(Manifest, Inventory), BackupError> {
    // With --database-url alone, job files (if the backup has any) go to ./data/jobs unless
    // --jobs-dir says where.
    let data = &args.data.clone().unwrap_or_else(|| PathBuf::from("./data"));
    let pg = postgres_url(&args.database_url);
    if pg.is_none() && data.join(SQLITE_FILE).exists() {
        return Err(BackupError(format!(
            "{} already holds a studio database: restore into a new directory, or move this one aside first (a restore never overwrites)",
            data.display()
        )));
    }
    let jobs = args.jobs_dir.clone().unwrap_or_else(|| data.join("jobs"));
    if std::fs::read_dir(&jobs).is_ok_and(|mut d| d.next().is_some()) {
        return Err(BackupError(format!(
            "{} is not empty: restore the job files into a new directory (--jobs-dir), or move these aside",
            jobs.display()
        )));
    }
    // Unpacked beside its target (a rename moves it into place): in the data directory for
    // SQLite; for PostgreSQL, whose dump goes to the server, in the temporary directory, the
    // data directory made only if the backup has job files for it.
    let made_data = pg.is_none() && !data.exists();
    let staging = match pg {
        None => {
            std::fs::create_dir_all(data)
                .map_err(io(format!("cannot create {}", data.display())))?;
            data.join(".restore-staging")
        }
        Some(_) => std::env::temp_dir().join(format!("ds-studio-restore-{}", std::process::id())),
    };
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir(&staging).map_err(io(format!("cannot create {}", staging.display())))?;
    let result = restore_into(args, data, &staging, &jobs);
    let _ = std::fs::remove_dir_all(&staging);
    if result.is_err() && made_data {
        // Nothing of a failed restore stays behind (the directory only if it is empty).
        let _ = std::fs::remove_dir(data);
    }
    result
}

fn restore_into(
    args: &RestoreArgs,
    data: &Path,
    staging: &Path,
    jobs: &Path,
) -> Result<(Manifest, Inventory), BackupError> {
    let manifest = unpack(&args.from, staging)?;
    let pg = postgres_url(&args.database_url);
    match (manifest.database.as_str(), pg) {
        ("sqlite", Some(_)) | ("postgres", None) => {
            return Err(BackupError(format!(
                "this backup holds a {} database: restore it {}",
                manifest.database,
                if pg.is_some() {
                    "with --data DIR (no --database-url)"
                } else {
                    "with --database-url postgres://…"
                }
            )))
        }
        _ => {}
    }
    let rt = runtime()?;
    let restored = match pg {
        None => {
            let copy = staging.join(SQLITE_FILE);
            // The copy checked where it lies, before anything moves into place.
            rt.block_on(async {
                let store = Store::attach(&format!("sqlite://{}?mode=rw", copy.display())).await?;
                let checked = match store.check_integrity().await {
                    Ok(()) => store.inventory().await,
                    Err(e) => Err(e),
                };
                store.close().await;
                checked
            })?;
            let target = data.join(SQLITE_FILE);
            for suffix in ["-wal", "-shm"] {
                let _ = std::fs::remove_file(staging.join(format!("{SQLITE_FILE}{suffix}")));
            }
            std::fs::rename(&copy, &target).map_err(io(format!(
                "cannot move the database to {}",
                target.display()
            )))?;
            rt.block_on(async {
                let store = Store::open_sqlite(data).await?;
                let i = store.inventory().await;
                store.close().await;
                i
            })?
        }
        Some(url) => {
            rt.block_on(async {
                let store = Store::attach(url).await?;
                let empty = store.inventory().await.is_err();
                store.close().await;
                if empty {
                    Ok(())
                } else {
                    Err(BackupError(
                        "the database at --database-url already holds a studio: restore into a new, empty database (createdb)".into(),
                    ))
                }
            })?;
            pg_restore(url, &staging.join(PG_FILE))?;
            rt.block_on(async {
                let store = Store::connect(url).await?;
                let i = store.inventory().await;
                store.close().await;
                i
            })?
        }
    };
    let promised = &manifest.inventory;
    let same = (
        promised.templates,
        promised.versions,
        promised.jobs,
        promised.job_events,
    ) == (
        restored.templates,
        restored.versions,
        restored.jobs,
        restored.job_events,
    );
    if !same {
        return Err(BackupError(format!(
            "the restored database does not hold what the backup promised ({promised:?}, found {restored:?}): keep the backup file and report this"
        )));
    }
    let unpacked_jobs = staging.join("jobs");
    if unpacked_jobs.is_dir() {
        if let Some(parent) = jobs.parent() {
            std::fs::create_dir_all(parent)
                .map_err(io(format!("cannot create {}", parent.display())))?;
        }
        let _ = std::fs::remove_dir(jobs);
        move_tree(&unpacked_jobs, jobs).map_err(io(format!(
            "cannot move the job files to {}",
            jobs.display()
        )))?;
    }
    Ok((manifest, restored))
}

/// Unpacks a backup into `dir`: only regular files and directories, only beneath `dir`; the
/// manifest is read and checked.
fn unpack(from: &Path, dir: &Path) -> Result<Manifest, BackupError> {
    let file = std::fs::File::open(from).map_err(io(format!("cannot open {}", from.display())))?;
    let mut archive =
        tar::Archive::new(flate2::read::GzDecoder::new(std::io::BufReader::new(file)));
    let not_a_backup = |e: std::io::Error| {
        BackupError(format!(
            "cannot read {}: it is damaged (cut short?) or not a ds-studio backup (a .tar.gz from `ds-studio backup`): {e}",
            from.display()
        ))
    };
    let mut manifest = None;
    for entry in archive.entries().map_err(not_a_backup)? {
        let mut entry = entry.map_err(not_a_backup)?;
        let kind = entry.header().entry_type();
        let path = entry.path().map_err(not_a_backup)?.into_owned();
        if path == Path::new(MANIFEST) {
            let mut text = String::new();
            entry.read_to_string(&mut text).map_err(not_a_backup)?;
            let m: Manifest = serde_json::from_str(&text).map_err(|e| {
                BackupError(format!(
                    "{}: the manifest is unreadable: {e}",
                    from.display()
                ))
            })?;
            if m.format > FORMAT {
                return Err(BackupError(format!(
                    "this backup was written by ds-studio {} in format {}; this ds-studio reads format {FORMAT}: restore it with that version or newer",
                    m.ds_studio, m.format
                )));
            }
            manifest = Some(m);
            continue;
        }
        if !(kind.is_file() || kind.is_dir()) {
            return Err(BackupError(format!(
                "{}: `{}` is neither a file nor a directory; a ds-studio backup holds only those",
                from.display(),
                path.display()
            )));
        }
        if !entry.unpack_in(dir).map_err(not_a_backup)? {
            return Err(BackupError(format!(
                "{}: `{}` points outside the backup; refused",
                from.display(),
                path.display()
            )));
        }
    }
    manifest.ok_or_else(|| {
        BackupError(format!(
            "{} has no {MANIFEST}: not a ds-studio backup",
            from.display()
        ))
    })
}

fn pg_restore(url: &str, dump: &Path) -> Result<(), BackupError> {
    let status = std::process::Command::new("pg_restore")
        .args(["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--dbname"])
        .arg(url)
        .arg(dump)
        .status()
        .map_err(|e| {
            BackupError(format!(
                "cannot run pg_restore ({e}): install PostgreSQL's client tools (Debian: postgresql-client)"
            ))
        })?;
    if !status.success() {
        return Err(BackupError(format!(
            "pg_restore failed ({status}); its message is above"
        )));
    }
    Ok(())
}

/// Moves a directory: a rename, or a copy and a removal across file systems (the temporary
/// directory a PostgreSQL restore unpacks in may be on another one).
fn move_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::rename(from, to).is_ok() {
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            move_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    std::fs::remove_dir_all(from)
}

/// `FILE` + `suffix` as a sibling path.
fn with_suffix(p: &Path, suffix: &str) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / (1u64 << 30) as f64),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}
