//! The configuration file: which window to play, where the grid is when detection needs
//! help, how to enter digits, and how fast. Every key is optional; with no file at all the
//! bot plays GNOME Sudoku-like games by clicking a cell and typing the digit.
//!
//! The file is looked for at `--config FILE`, else `$SUDOKU_BOT_CONFIG`, else the user's
//! configuration directory (`~/.config/sudoku-bot/config.toml` on Linux); a
//! `config.toml` in the current folder only when named. Unknown keys
//! and wrong types are errors that name the file, the line and the key
//! (`config/config.example.toml` documents every key with its default).

use std::path::PathBuf;

use serde::Deserialize;

mod load;
pub use load::{
    cache_dir, line_of, load, load_file, locate, make_private_dir, parse, user_config_path, Found,
    Source, CONFIG_ENV,
};

/// The whole configuration. `Default` is what the bot uses with no file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The desktop to play on (`backend = "x11" | "gnome-wayland"`); `--backend`
    /// overrides it. Default: chosen from the session.
    pub backend: Option<crate::backend::Backend>,
    pub window: WindowConfig,
    pub grid: GridConfig,
    pub input: InputConfig,
    pub delays: Delays,
    pub watch: WatchConfig,
    pub ocr: OcrConfig,
    pub puzzle: PuzzleConfig,
}

/// What to do with a puzzle that has more than one solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeveralSolutions {
    /// Play one of them (every digit read with confidence and confirmed); if the game
    /// marks an entry wrong or says the grid is wrong, switch to another solution that
    /// keeps what the game accepted.
    #[default]
    Play,
    /// Refuse the puzzle, as a misread may be to blame.
    Refuse,
}

/// Puzzles the game deals.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PuzzleConfig {
    pub several_solutions: SeveralSolutions,
}

/// Which window to play and which part of it to look at.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WindowConfig {
    /// The window to play when `--window` is not given (same matching rules).
    pub title: Option<String>,
    /// Look for the grid only in this part of the window (window pixels). Everything
    /// outside it is ignored, which also keeps clocks and animations from waking the bot.
    pub region: Option<Region>,
}

/// A rectangle in window pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// Manual override of where the cells are, for when grid detection puts clicks in the
/// wrong place. With `origin` and `cell_size` set (both or neither), the centre of cell
/// (row, col) is `origin + cell_size * (col + 0.5, row + 0.5) + click_offset` in window
/// pixels.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(try_from = "GridFile")]
pub struct GridConfig {
    /// Where the cells are, when set by hand.
    pub cells: Option<CellPlacement>,
    /// Added to every click position `[dx, dy]` (also with detected grids).
    pub click_offset: [f32; 2],
}

/// The cells set by hand: the grid's top-left corner and one cell's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellPlacement {
    /// Top-left corner of the grid, window pixels `[x, y]`.
    pub origin: [f32; 2],
    /// Width and height of one cell in pixels `[w, h]`.
    pub cell_size: [f32; 2],
}

/// `[grid]` as written in the file.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct GridFile {
    origin: Option<[f32; 2]>,
    cell_size: Option<[f32; 2]>,
    click_offset: [f32; 2],
}

impl TryFrom<GridFile> for GridConfig {
    type Error = String;
    fn try_from(file: GridFile) -> Result<Self, String> {
        let cells = match (file.origin, file.cell_size) {
            (Some(origin), Some(cell_size)) => Some(CellPlacement { origin, cell_size }),
            (None, None) => None,
            _ => return Err("grid.origin and grid.cell_size must be given together".into()),
        };
        Ok(GridConfig {
            cells,
            click_offset: file.click_offset,
        })
    }
}

/// How digits are entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputMethod {
    /// Click the cell, then type the digit (GNOME Sudoku: the click opens a number
    /// popover that the key press fills and closes).
    #[default]
    Click,
    /// Click the first cell once, then move with the arrow keys and type digits.
    Keys,
    /// Click the cell, then click the digit's button on the app's number pad.
    Pad,
}

/// Input settings.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(try_from = "InputFile")]
pub struct InputConfig {
    /// Pins how digits are entered; unset, the bot learns it from the game's answer
    /// to its first move. `Pad` always comes with `pad`.
    pub method: Option<InputMethod>,
    /// Centres of the pad buttons 1 to 9, window pixels `[x, y]` (method "pad").
    pub pad: Option<[[f32; 2]; 9]>,
    /// Whether arrow keys may be tried in place of clicks that work (faster where the
    /// game takes them; a game may also take any such key for "back to the menu").
    /// Unset: only in games whose arrow keys were seen harmless (stored of an earlier
    /// run, or [`crate::bot::ARROWS_SEEN_HARMLESS`]).
    pub try_arrows: Option<bool>,
}

/// `[input]` as written in the file.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct InputFile {
    method: Option<InputMethod>,
    pad: Option<Vec<[f32; 2]>>,
    try_arrows: Option<bool>,
}

impl TryFrom<InputFile> for InputConfig {
    type Error = String;
    fn try_from(file: InputFile) -> Result<Self, String> {
        let pad = match file.pad {
            Some(points) => Some(<[[f32; 2]; 9]>::try_from(points.as_slice()).map_err(|_| {
                format!(
                    "input.pad has {} positions, need 9 (digits 1 to 9)",
                    points.len()
                )
            })?),
            None => None,
        };
        if file.method == Some(InputMethod::Pad) && pad.is_none() {
            return Err(
                "input.method = \"pad\" needs input.pad (nine [x, y] button centres)".into(),
            );
        }
        Ok(InputConfig {
            method: file.method,
            pad,
            try_arrows: file.try_arrows,
        })
    }
}

/// Pauses in milliseconds. The defaults are the shortest GNOME Sudoku 43 takes without
/// losing a digit under Xvfb, with a margin (measured by `tests/e2e_gnome_sudoku.rs`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Delays {
    /// After a click on a cell, before the digit (the popover has to open).
    pub after_click: u64,
    /// After the digit of one move, before the next move.
    pub after_key: u64,
    /// After each arrow key (method "keys", or learnt: a game that takes arrow keys is
    /// played with them). Keys reach the game in one queue, in order, so the pause
    /// is only there for games that drop keys that come too fast.
    pub after_arrow: u64,
    /// After the last move, before the verification capture (the app redraws).
    pub settle: u64,
    /// Delay the X server adds to each synthetic event (enigo's `linux_delay`).
    pub x11_event: u32,
    /// The longest any pause may grow when the game loses moves (the bot slows down
    /// fourfold each time it sees digits lost or in the wrong cell).
    pub slowest: u64,
    /// Whether, once the game is learnt, the bot tries shorter pauses than
    /// `after_click` and `after_key` and keeps them while the game keeps up. Off by
    /// default: a trial of eight moves cannot show a fault that strikes one move in
    /// fifty, and a digit in the wrong cell is a mistake in games that count them.
    pub shorten: bool,
}

impl Default for Delays {
    fn default() -> Self {
        Delays {
            after_click: 10,
            after_key: 2,
            after_arrow: 1,
            settle: 150,
            x11_event: 0,
            slowest: 1000,
            shorten: false,
        }
    }
}

/// The watch loop.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WatchConfig {
    /// Time between captures while waiting, milliseconds.
    pub interval: u64,
    /// With `--once`: give up (exit 1) when no playable grid appeared for this long,
    /// milliseconds.
    pub once_timeout: u64,
    /// How many times verification may re-enter cells that did not take.
    pub verify_rounds: u32,
    /// Folder for pictures of refused or failed reads (default: `$XDG_CACHE_HOME/sudoku-bot`,
    /// filled in by [`load`]).
    pub debug_dir: Option<PathBuf>,
    /// How many of those pictures to keep: the oldest go first. The same picture
    /// (same fingerprint) is never saved twice.
    pub debug_keep: usize,
    /// Whether what was learnt of each game is stored, and used the next time.
    pub remember: bool,
    /// Where it is stored (default: the XDG state directory, `sudoku-bot/games`).
    pub state_dir: Option<PathBuf>,
}

impl Default for WatchConfig {
    fn default() -> Self {
        WatchConfig {
            interval: 200,
            once_timeout: 15_000,
            verify_rounds: 3,
            debug_dir: None,
            debug_keep: 20,
            remember: true,
            state_dir: None,
        }
    }
}

/// Settings passed through to the reader (`vision::ReaderOptions`). All optional: the
/// reader has its own defaults.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OcrConfig {
    /// Tesseract language (default "eng").
    pub language: Option<String>,
    /// Folder holding `<language>.traineddata` (default: Tesseract's own).
    pub tessdata_dir: Option<PathBuf>,
    /// Tesseract answers below this confidence (0..1) are read again alone, else left
    /// to the rules (reader default 0.5).
    pub min_confidence: Option<f32>,
}

impl OcrConfig {
    /// The reader's options: these settings over the reader's defaults.
    pub fn reader_options(&self) -> crate::vision::ReaderOptions {
        let mut options = crate::vision::ReaderOptions::default();
        if let Some(language) = &self.language {
            options.language = language.clone();
        }
        if let Some(dir) = &self.tessdata_dir {
            options.tessdata_dir = Some(dir.to_string_lossy().into_owned());
        }
        if let Some(c) = self.min_confidence {
            options.min_confidence = c;
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn empty_file_gives_defaults() {
        assert_eq!(parse("", "c.toml").unwrap(), Config::default());
    }

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let err = parse("[delays]\nafter_click = 5\nafter_klick = 7\n", "my.toml").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("my.toml line 3"), "{msg}");
        assert!(msg.contains("after_klick"), "{msg}");
    }

    #[test]
    fn wrong_type_names_line_and_key() {
        let err = parse("[watch]\n\ninterval = \"fast\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("interval"), "{err}");
    }

    #[test]
    fn pad_method_needs_nine_positions() {
        let err = parse("[input]\nmethod = \"pad\"\npad = [[1, 2]]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("need 9") && err.contains("c.toml line 3"),
            "{err}"
        );
        let err = parse("[input]\nmethod = \"pad\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("needs input.pad") && err.contains("c.toml line 2"),
            "{err}"
        );
        let ok = parse(
            "[input]\nmethod = \"pad\"\npad = [[1,2],[1,2],[1,2],[1,2],[1,2],[1,2],[1,2],[1,2],[1,2]]\n",
            "c.toml",
        )
        .unwrap();
        assert_eq!(ok.input.method, Some(InputMethod::Pad));
    }

    #[test]
    fn numbers_that_are_not_finite_name_the_key_and_line() {
        for (text, key, line) in [
            (
                "[grid]\norigin = [1, 2]\ncell_size = [nan, nan]\n",
                "grid.cell_size",
                3,
            ),
            ("[grid]\nclick_offset = [inf, 0]\n", "grid.click_offset", 2),
            (
                "\n[grid]\norigin = [-inf, 2]\ncell_size = [5, 5]\n",
                "grid.origin",
                3,
            ),
            (
                "[input]\npad = [[1, 2], [nan, 3], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2]]\n",
                "input.pad",
                2,
            ),
            (
                "[grid]\norigin = [1e9, 2]\ncell_size = [5, 5]\n",
                "grid.origin",
                2,
            ),
            (
                "[grid]\norigin = [1, 2]\ncell_size = [0, 5]\n",
                "grid.cell_size",
                3,
            ),
        ] {
            let err = parse(text, "c.toml").unwrap_err().to_string();
            assert!(err.contains(key), "{text:?}: {err}");
            assert!(
                err.contains(&format!("c.toml line {line}")),
                "{text:?}: {err}"
            );
        }
    }

    #[test]
    fn grid_override_needs_origin_and_size() {
        let err = parse("[grid]\n\norigin = [10, 20]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("must be given together") && err.contains("c.toml line 3"),
            "{err}"
        );
        let c = parse(
            "[grid]\norigin = [10, 20]\ncell_size = [50, 50]\nclick_offset = [0, 2]\n",
            "c.toml",
        )
        .unwrap();
        assert_eq!(
            c.grid.cells,
            Some(CellPlacement {
                origin: [10.0, 20.0],
                cell_size: [50.0, 50.0]
            })
        );
    }

    #[test]
    fn ocr_settings_reach_the_reader_options() {
        let c = parse(
            "[ocr]\nlanguage = \"deu\"\nmin_confidence = 0.7\n",
            "c.toml",
        )
        .unwrap();
        let o = c.ocr.reader_options();
        assert_eq!(
            (o.language.as_str(), o.min_confidence, o.tessdata_dir),
            ("deu", 0.7, None)
        );
        let d = Config::default().ocr.reader_options();
        assert_eq!(d.language, crate::vision::ReaderOptions::default().language);
    }

    #[test]
    fn every_profile_is_valid() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/profiles");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let config = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
                assert!(
                    config.window.title.is_some(),
                    "{} names no window",
                    path.display()
                );
                seen += 1;
            }
        }
        assert!(seen >= 2, "profiles missing in {}", dir.display());
    }

    #[test]
    fn example_file_is_valid_and_matches_defaults() {
        let text = include_str!("../../config/config.example.toml");
        let parsed = parse(text, "config.example.toml").unwrap();
        assert_eq!(parsed, Config::default());
    }
}
