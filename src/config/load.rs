//! Loading config.toml: where it is looked for, parsing it, and the checks that types
//! alone cannot make, each error naming the file and the line of the key at fault.

use std::path::{Path, PathBuf};

use super::*;
use crate::UsageError;

/// Where the configuration came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    File(PathBuf),
    Defaults,
}

/// The environment variable naming a configuration file, after `--config`.
pub const CONFIG_ENV: &str = "SUDOKU_BOT_CONFIG";

/// How the configuration file was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Named by `--config`.
    Flag,
    /// Named by `$SUDOKU_BOT_CONFIG`.
    Env,
    /// The user's own file in the XDG config folder.
    User,
}

impl Found {
    /// How `sudoku-bot config` says it.
    pub fn describe(self) -> &'static str {
        match self {
            Found::Flag => "named by --config",
            Found::Env => "named by $SUDOKU_BOT_CONFIG",
            Found::User => "the user's configuration file",
        }
    }
}

/// The configuration file in effect, if any: `explicit` (`--config`), else the file
/// `$SUDOKU_BOT_CONFIG` names, else `$XDG_CONFIG_HOME/sudoku-bot/config.toml`
/// (~/.config/sudoku-bot/config.toml). A named file must exist. A `config.toml` in the
/// current folder is read only when named: another folder's file must not take over
/// the bot silently.
pub fn locate(
    explicit: Option<&Path>,
    env: Option<std::ffi::OsString>,
) -> Result<Option<(PathBuf, Found)>, UsageError> {
    let named = explicit
        .map(|p| (p.to_path_buf(), Found::Flag))
        .or_else(|| {
            env.filter(|v| !v.is_empty())
                .map(|v| (PathBuf::from(v), Found::Env))
        });
    if let Some((path, found)) = named {
        if !path.is_file() {
            return Err(UsageError(format!(
                "cannot read configuration file {} ({}): no such file",
                path.display(),
                found.describe()
            )));
        }
        return Ok(Some((path, found)));
    }
    let user = user_config_path().filter(|p| p.is_file());
    if user.is_none() && Path::new("config.toml").is_file() {
        tracing::info!("./config.toml is not read unless named: --config config.toml uses it");
    }
    Ok(user.map(|p| (p, Found::User)))
}

/// `$XDG_CONFIG_HOME/sudoku-bot/config.toml`, whether or not it exists.
pub fn user_config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "sudoku-bot")
        .map(|dirs| dirs.config_dir().join("config.toml"))
}

/// Where pictures of refused reads go when `watch.debug_dir` is not set:
/// `$XDG_CACHE_HOME/sudoku-bot` (~/.cache/sudoku-bot), private to the user.
pub fn cache_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "sudoku-bot").map(|dirs| dirs.cache_dir().to_path_buf())
}

/// Creates `dir` (and its parents) readable by the user alone (mode 0700), or makes an
/// existing one so: the pictures in it show the user's screen.
pub fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Loads the configuration in effect ([`locate`]), else the defaults. Any problem is a
/// [`UsageError`]. An unset `watch.debug_dir` becomes [`cache_dir`], created private.
pub fn load(explicit: Option<&Path>) -> Result<(Config, Source), UsageError> {
    let (mut config, source) = match locate(explicit, std::env::var_os(CONFIG_ENV))? {
        Some((path, _)) => (load_file(&path)?, Source::File(path)),
        None => (Config::default(), Source::Defaults),
    };
    if config.watch.debug_dir.is_none() {
        if let Some(dir) = cache_dir() {
            if let Err(e) = make_private_dir(&dir) {
                tracing::warn!(
                    "cannot create {} for pictures of refused reads: {e}",
                    dir.display()
                );
            }
            config.watch.debug_dir = Some(dir);
        }
    }
    Ok((config, source))
}

/// Reads and checks one configuration file.
pub fn load_file(path: &Path) -> Result<Config, UsageError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        UsageError(format!(
            "cannot read configuration file {}: {e}",
            path.display()
        ))
    })?;
    parse(&text, &path.display().to_string())
}

/// Parses configuration text; `name` is the file name used in error messages, which
/// read `config.toml line 3: unknown field `colour`, expected ...`.
pub fn parse(text: &str, name: &str) -> Result<Config, UsageError> {
    let config: Config = toml::from_str(text).map_err(|e| {
        let what = e.message().trim().replace('\n', " ");
        // A table's own check (`grid.origin and grid.cell_size must be given
        // together`) starts with the key at fault: its line, rather than the table's.
        let key_line = what
            .split_whitespace()
            .next()
            .and_then(|key| line_of(text, key));
        let span_line = e.span().map(|span| {
            let at = span.start.min(text.len());
            let line = 1 + text[..at].matches('\n').count();
            (
                line,
                text.lines().nth(line - 1).unwrap_or("").trim().to_string(),
            )
        });
        match key_line.or(span_line) {
            // The line itself names the key (`interval = "fast"`); type errors' own
            // messages do not.
            Some((line, source)) => UsageError(format!(
                "bad configuration in {name} line {line} (`{source}`): {what}"
            )),
            None => UsageError(format!("bad configuration in {name}: {what}")),
        }
    })?;
    config.check().map_err(|Invalid { key, what }| {
        let at = line_of(text, key)
            .map(|(line, source)| format!(" line {line} (`{source}`)"))
            .unwrap_or_default();
        UsageError(format!("bad configuration in {name}{at}: {what}"))
    })?;
    Ok(config)
}

/// A value the types allow but the bot cannot use: which key (`table.key`), and why.
struct Invalid {
    key: &'static str,
    what: String,
}

fn invalid(key: &'static str, what: String) -> Result<(), Invalid> {
    Err(Invalid { key, what })
}

/// The line number and text of `table.key` in the file (`.key` for a key before any
/// table), for messages.
pub fn line_of(text: &str, key: &str) -> Option<(usize, String)> {
    let (table, name) = key.split_once('.')?;
    let mut current = String::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(header) = trimmed.strip_prefix('[') {
            current = header.trim_end_matches(']').trim().to_string();
        } else if current == table
            && trimmed
                .strip_prefix(name)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        {
            return Some((n + 1, trimmed.to_string()));
        }
    }
    None
}

/// Largest coordinate accepted anywhere (window pixels): beyond any screen made.
const MAX_COORDINATE: f32 = 100_000.0;

/// Checks that every number of `values` is finite and within screen range.
fn check_points(key: &'static str, values: &[[f32; 2]], positive: bool) -> Result<(), Invalid> {
    for v in values.iter().flatten() {
        if !v.is_finite() {
            return invalid(key, format!("{key} holds {v}; it must be a finite number"));
        }
        if v.abs() > MAX_COORDINATE {
            return invalid(key, format!("{key} holds {v}, far outside any screen"));
        }
        if positive && *v <= 0.0 {
            return invalid(key, format!("{key} holds {v}; it must be positive"));
        }
    }
    Ok(())
}

impl Config {
    /// Checks what types alone cannot: finite numbers, sizes, and settings that need
    /// each other. (That click points land inside the window is checked against the
    /// window itself, before the first click.)
    fn check(&self) -> Result<(), Invalid> {
        if let Some(r) = self.window.region {
            if r.width < 9 || r.height < 9 {
                return invalid(
                    "window.region",
                    format!(
                        "window.region is {}x{}, too small for a grid",
                        r.width, r.height
                    ),
                );
            }
        }
        if let Some(cells) = self.grid.cells {
            check_points("grid.origin", &[cells.origin], false)?;
            check_points("grid.cell_size", &[cells.cell_size], true)?;
        }
        check_points("grid.click_offset", &[self.grid.click_offset], false)?;
        if let Some(pad) = &self.input.pad {
            check_points("input.pad", pad, false)?;
        }
        if self.watch.interval == 0 {
            return invalid(
                "watch.interval",
                "watch.interval must be at least 1 millisecond".into(),
            );
        }
        if let Some(c) = self.ocr.min_confidence {
            if !(0.0..=1.0).contains(&c) {
                return invalid(
                    "ocr.min_confidence",
                    format!("ocr.min_confidence {c} must be between 0 and 1"),
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(dir: &Path) -> u32 {
        std::fs::metadata(dir).unwrap().permissions().mode() & 0o777
    }

    /// The pictures of refused reads show the user's screen: their folder is the user's
    /// alone, new or already there.
    #[test]
    fn the_picture_folder_is_private() {
        let tmp = tempfile::tempdir().unwrap();
        let fresh = tmp.path().join("cache/sudoku-bot");
        make_private_dir(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o700);
        let open = tmp.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        make_private_dir(&open).unwrap();
        assert_eq!(mode(&open), 0o700);
    }

    #[test]
    fn a_named_file_must_exist_and_the_flag_beats_the_variable() {
        let tmp = tempfile::tempdir().unwrap();
        let flag = tmp.path().join("flag.toml");
        let env = tmp.path().join("env.toml");
        std::fs::write(&flag, "").unwrap();
        std::fs::write(&env, "").unwrap();
        let found = locate(Some(&flag), Some(env.clone().into())).unwrap();
        assert_eq!(found, Some((flag, Found::Flag)));
        let found = locate(None, Some(env.clone().into())).unwrap();
        assert_eq!(found, Some((env, Found::Env)));
        let err = locate(None, Some(tmp.path().join("gone.toml").into())).unwrap_err();
        assert!(
            err.0.contains("gone.toml") && err.0.contains("SUDOKU_BOT_CONFIG"),
            "{}",
            err.0
        );
    }
}
