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

/// Loads the configuration: `explicit` (which must exist), else `./config.toml`, else
/// the user's config directory, else the defaults. Any problem is a [`UsageError`].
pub fn load(explicit: Option<&Path>) -> Result<(Config, Source), UsageError> {
    if let Some(path) = explicit {
        return Ok((load_file(path)?, Source::File(path.to_path_buf())));
    }
    let mut candidates = vec![PathBuf::from("config.toml")];
    if let Some(dirs) = directories::ProjectDirs::from("", "", "sudoku-bot") {
        candidates.push(dirs.config_dir().join("config.toml"));
    }
    for path in candidates {
        if path.is_file() {
            return Ok((load_file(&path)?, Source::File(path)));
        }
    }
    Ok((Config::default(), Source::Defaults))
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

/// The line number and text of `table.key` in the file, for messages.
fn line_of(text: &str, key: &str) -> Option<(usize, String)> {
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
