//! `sudoku-bot config`: the configuration in effect, each value with where it came from;
//! `sudoku-bot config --default`: the commented default file.
//!
//! The defaults are the uncommented keys of `config/config.example.toml` (the file
//! `--default` prints, which documents every key); keys shown there commented out, as
//! `# key = value`, have no default and are listed as not set.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use toml::{Table, Value};

use crate::config::{self, Found};
use crate::UsageError;

/// The commented default configuration, every key documented.
pub const DEFAULT_CONFIG: &str = include_str!("../../config/config.example.toml");

/// The top-level entry point for `sudoku-bot config [--default]`.
pub fn run(explicit: Option<&Path>, default: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if default {
        out.write_all(DEFAULT_CONFIG.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let found = config::locate(explicit, std::env::var_os(config::CONFIG_ENV))?;
    let user = match &found {
        Some((path, _)) => Some(UserFile::read(path)?),
        None => None,
    };
    let found = found.as_ref().map(|(p, f)| (p.as_path(), *f));
    out.write_all(in_effect(found, user.as_ref()).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The user's configuration file: its name, its text (for line numbers) and its keys.
struct UserFile {
    name: String,
    text: String,
    table: Table,
}

impl UserFile {
    /// Reads `path`, with the same checks as the watch: a bad file is refused here too.
    fn read(path: &Path) -> anyhow::Result<UserFile> {
        config::load_file(path)?;
        let text = std::fs::read_to_string(path)?;
        let table = text.parse().map_err(|e: toml::de::Error| {
            UsageError(format!(
                "bad configuration in {}: {}",
                path.display(),
                e.message()
            ))
        })?;
        Ok(UserFile {
            name: path.display().to_string(),
            text,
            table,
        })
    }
}

/// The configuration in effect as TOML that can be saved and used as it is, each value
/// followed by a comment saying where it came from.
fn in_effect(found: Option<(&Path, Found)>, user: Option<&UserFile>) -> String {
    let mut text = String::from("# The configuration in effect.\n");
    text += &match found {
        Some((path, how)) => format!("# File: {} ({}).\n", path.display(), how.describe()),
        None => format!(
            "# No configuration file: no --config, no ${}, no {}.\n",
            config::CONFIG_ENV,
            config::user_config_path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "user configuration folder".into())
        ),
    };
    let (defaults, unset) = defaults();
    let empty = Table::new();
    let user_table = user.map(|u| &u.table).unwrap_or(&empty);
    // Top-level keys first (as TOML wants them), then each table.
    let mut sections: Vec<Option<&str>> = vec![None];
    for (name, value) in defaults.iter().chain(user_table.iter()) {
        if value.is_table() && !sections.contains(&Some(name.as_str())) {
            sections.push(Some(name.as_str()));
        }
    }
    for section in sections {
        let (default_keys, user_keys) = (keys_of(&defaults, section), keys_of(user_table, section));
        text += "\n";
        if let Some(name) = section {
            text += &format!("[{name}]\n");
        }
        let table = section.unwrap_or("");
        let mut keys: Vec<&String> = default_keys.keys().chain(user_keys.keys()).collect();
        keys.extend(unset.iter().filter(|(s, _)| s == table).map(|(_, k)| k));
        keys.sort();
        keys.dedup();
        for key in keys {
            let dotted = format!("{table}.{key}");
            text += &match (user_keys.get(key), default_keys.get(key), user) {
                (Some(value), _, Some(user)) => {
                    let at = config::line_of(&user.text, &dotted)
                        .map(|(n, _)| format!(" line {n}"))
                        .unwrap_or_default();
                    format!("{key} = {value}  # {}{at}\n", user.name)
                }
                (None, Some(value), _) => format!("{key} = {value}  # default\n"),
                _ => unset_line(key, &dotted),
            };
        }
    }
    text
}

/// The keys of one table of `t` (`None`: the top-level keys that are not tables).
fn keys_of(t: &Table, section: Option<&str>) -> Table {
    match section {
        None => t
            .iter()
            .filter(|(_, v)| !v.is_table())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        Some(name) => t
            .get(name)
            .and_then(Value::as_table)
            .cloned()
            .unwrap_or_default(),
    }
}

/// The line for a key with no value in the file and no default; the picture folder's
/// default is the cache folder, which [`config::load`] fills in.
fn unset_line(key: &str, dotted: &str) -> String {
    match config::cache_dir() {
        Some(dir) if dotted == "watch.debug_dir" => format!(
            "{key} = {}  # default: $XDG_CACHE_HOME/sudoku-bot\n",
            Value::String(dir.display().to_string())
        ),
        _ => format!("# {key}: not set\n"),
    }
}

/// The defaults (the example file's uncommented keys), and the keys it shows commented
/// out as `# key = value`: (table, key), table "" for the top level.
fn defaults() -> (Table, Vec<(String, String)>) {
    let defaults: Table = DEFAULT_CONFIG.parse().unwrap_or_default();
    let mut unset = Vec::new();
    let mut section = String::new();
    for line in DEFAULT_CONFIG.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            section = header.trim_end_matches(']').trim().to_string();
        } else if let Some(commented) = line.strip_prefix("# ") {
            let Some((key, _)) = commented.split_once(" = ") else {
                continue;
            };
            let key = key.trim();
            if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                unset.push((section.clone(), key.to_string()));
            }
        }
    }
    (defaults, unset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults printed are the bot's own: the example parses to `Config::default()`
    /// with the keys it shows, so `config` cannot show a default the bot does not use.
    #[test]
    fn the_example_file_holds_the_defaults() {
        let parsed = config::parse(DEFAULT_CONFIG, "config.example.toml").unwrap();
        assert_eq!(parsed, config::Config::default());
        let (defaults, unset) = defaults();
        assert_eq!(defaults["watch"]["interval"].as_integer(), Some(200));
        assert!(unset.contains(&("window".into(), "title".into())));
        assert!(unset.contains(&(String::new(), "backend".into())));
    }

    #[test]
    fn values_say_where_they_came_from_and_parse_back() {
        let user_text = "[window]\ntitle = \"Sudoku\"\n\n[watch]\ninterval = 300\n";
        let user = UserFile {
            name: "my.toml".into(),
            text: user_text.into(),
            table: user_text.parse().unwrap(),
        };
        let text = in_effect(Some((Path::new("my.toml"), Found::Flag)), Some(&user));
        assert!(
            text.contains("title = \"Sudoku\"  # my.toml line 2\n"),
            "{text}"
        );
        assert!(
            text.contains("interval = 300  # my.toml line 5\n"),
            "{text}"
        );
        assert!(text.contains("after_click = 10  # default\n"), "{text}");
        assert!(text.contains("# region: not set\n"), "{text}");
        let back = config::parse(&text, "in effect").unwrap();
        assert_eq!(back.window.title.as_deref(), Some("Sudoku"));
        assert_eq!(back.watch.interval, 300);
    }
}
