//! The schema migrations, compiled into the binary: `migrations/sqlite` and
//! `migrations/postgres` hold one file per step, mirrored (same name, each dialect's SQL).
//!
//! sqlx's `migrate!` macro did this before, at the price of compiling sqlx a second time for
//! the macro (SQLite's C source included): about a minute of a fresh set-up. The list below
//! names the files instead; a test checks it against both directories. Each step is built as
//! the macro built it (version and description from the file name, the file's SHA-384 as the
//! checksum, `-- no-transaction` honoured), so databases migrated by earlier builds open
//! unchanged: sqlx refuses a database whose applied checksums differ.

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::SqlSafeStr;
use std::sync::LazyLock;

/// Lists the migration files once, by name without `.sql`, in order.
macro_rules! migration_files {
    ($($stem:literal),* $(,)?) => {
        /// (file name without `.sql`, SQLite text, PostgreSQL text), in order.
        pub(crate) const FILES: &[(&str, &str, &str)] = &[$((
            $stem,
            include_str!(concat!("../../../../migrations/sqlite/", $stem, ".sql")),
            include_str!(concat!("../../../../migrations/postgres/", $stem, ".sql")),
        )),*];
    };
}

// A new migration: add its two files and its name here.
migration_files!(
    "0001_accounts_templates",
    "0002_jobs",
    "0003_runner_tokens",
    "0004_runner_deepspeed",
    "0005_runs_table",
    "0006_template_forks",
    "0007_fork_origin_name",
    "0008_user_disabled",
    "0009_launchers_devices",
    "0010_sweeps",
    "0011_attempt_windows",
);

pub(crate) static SQLITE: LazyLock<Migrator> = LazyLock::new(|| migrator(|f| f.1));
pub(crate) static POSTGRES: LazyLock<Migrator> = LazyLock::new(|| migrator(|f| f.2));

/// The migrator of one dialect, each step as `migrate!` would have made it.
fn migrator(sql_of: fn(&(&'static str, &'static str, &'static str)) -> &'static str) -> Migrator {
    Migrator::with_migrations(
        FILES
            .iter()
            .map(|file| {
                let (version, description) = file
                    .0
                    .split_once('_')
                    .expect("a migration file is named NNNN_description");
                let sql = sql_of(file);
                Migration::new(
                    version.parse().expect("a migration's version is a number"),
                    description.replace('_', " ").into(),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    sql.starts_with("-- no-transaction"),
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The migration files of one dialect's directory, by name without `.sql`, sorted.
    fn on_disk(dialect: &str) -> Vec<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../migrations")
            .join(dialect);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(".sql").map(str::to_string))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_list_names_every_file_of_both_dialects_in_order() {
        let listed: Vec<String> = FILES.iter().map(|f| f.0.to_string()).collect();
        assert_eq!(listed, on_disk("sqlite"), "migrations/sqlite");
        assert_eq!(listed, on_disk("postgres"), "migrations/postgres");
    }

    #[test]
    fn steps_are_numbered_one_by_one_with_a_description() {
        for (i, m) in SQLITE.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.description);
            assert!(!m.description.is_empty() && !m.description.contains('_'));
            assert_eq!(m.checksum.len(), 48, "SHA-384");
        }
        assert_eq!(SQLITE.iter().count(), POSTGRES.iter().count());
    }

    /// Databases migrated by earlier builds (with `migrate!`) hold these checksums: if one
    /// differed here, sqlx would refuse to open them. Recorded from a SQLite and a PostgreSQL
    /// database that the last build with the macro created.
    #[test]
    fn checksums_match_what_earlier_builds_stored() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/applied-migrations.tsv");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut checked = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let [dialect, version, stored] = line.split('\t').collect::<Vec<_>>()[..] else {
                panic!("bad fixture line {line:?}");
            };
            let migrator = match dialect {
                "sqlite" => &*SQLITE,
                "postgres" => &*POSTGRES,
                other => panic!("unknown dialect {other}"),
            };
            let version: i64 = version.parse().unwrap();
            let ours = migrator.iter().find(|m| m.version == version).unwrap();
            let hex: String = ours.checksum.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(hex, stored, "{dialect} migration {version}");
            checked += 1;
        }
        assert_eq!(checked, 22, "11 steps in each dialect");
    }
}
