//! Remembering each game: what was learnt of how a game takes digits (the input method,
//! its number pad, whether it shows a selection, how long it takes to answer, the
//! pauses it needs), stored per game under the XDG state directory
//! (`$XDG_STATE_HOME/sudoku-bot/games/KEY.toml`), keyed by the application's identity:
//! its name and the title up to " - " (what stays while a page's title says how the
//! game goes). A second run uses it and skips learning; a stored model that the first
//! look in play contradicts is dropped (the file too) and the game is learnt again.
//! What a click opens over the grid (a popover, a number wheel) and how it closes, and
//! whether the number pad is picked before the cell, are stored with what they were
//! learnt from; the first click of a run from the store is watched for the popover.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use tracing::{info, warn};

use super::{learn, learn::Popover, pace, Bot, GridReader};
use crate::config::InputMethod;
use crate::input::Input;
use crate::screen::{Screen, WindowInfo};

/// What is stored of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// "click", "keys" or "pad".
    pub method: String,
    /// The number pad's buttons 1 to 9 (window pixels), for "pad".
    pub pad: Option<Vec<[i32; 2]>>,
    pub shows_selection: Option<bool>,
    /// The longest the game took to answer an input (ms).
    pub latency: u64,
    pub after_click: u64,
    pub after_key: u64,
    /// Whether arrow keys were proven to move the selection (played with them).
    pub arrows: bool,
    /// The store's format: [`VERSION`] holds what a click opens over the grid and
    /// whether the pad is picked first. A file without it (1) was written before and
    /// says nothing of either: a popover is looked for at the first click.
    #[serde(default = "first_version")]
    pub version: u32,
    /// What a click on a cell opens over the grid: "none", "closes-itself", "escape",
    /// or "click-beside" (at `popover_at`, window pixels).
    #[serde(default)]
    pub popover: Option<String>,
    #[serde(default)]
    pub popover_at: Option<[i32; 2]>,
    /// What that was learnt from.
    #[serde(default)]
    pub popover_evidence: Option<String>,
    /// The number pad picks a digit that a click on a cell then enters.
    #[serde(default)]
    pub pad_first: bool,
    /// What that was learnt from.
    #[serde(default)]
    pub pad_first_evidence: Option<String>,
}

/// The store's format written now (see [`Stored::version`]).
pub const VERSION: u32 = 2;

fn first_version() -> u32 {
    1
}

impl Stored {
    pub fn method(&self) -> Option<InputMethod> {
        match self.method.as_str() {
            "click" => Some(InputMethod::Click),
            "keys" => Some(InputMethod::Keys),
            "pad" => Some(InputMethod::Pad),
            _ => None,
        }
    }

    pub fn method_name(method: InputMethod) -> &'static str {
        match method {
            InputMethod::Click => "click",
            InputMethod::Keys => "keys",
            InputMethod::Pad => "pad",
        }
    }

    /// What a click opens over the grid, as stored; `None` when the file says nothing
    /// of it (written before popovers were stored).
    pub fn popover(&self) -> Option<Popover> {
        if self.version < VERSION {
            return None;
        }
        match (self.popover.as_deref()?, self.popover_at) {
            ("none", _) => Some(Popover::Unseen),
            ("closes-itself", _) => Some(Popover::ClosesItself),
            ("escape", _) => Some(Popover::Escape),
            ("click-beside", Some([x, y])) => Some(Popover::ClickBeside(x, y)),
            _ => None,
        }
    }

    /// How `popover` is stored: its name, and the spot a click closes it at.
    pub fn popover_name(popover: Popover) -> (Option<String>, Option<[i32; 2]>) {
        let name = match popover {
            Popover::Unseen => "none",
            Popover::ClosesItself => "closes-itself",
            Popover::Escape => "escape",
            Popover::ClickBeside(..) => "click-beside",
            Popover::Opens => return (None, None),
        };
        let at = match popover {
            Popover::ClickBeside(x, y) => Some([x, y]),
            _ => None,
        };
        (Some(name.into()), at)
    }

    /// The pad as the model keeps it: nine buttons, or none.
    pub fn pad_buttons(&self) -> Option<[(i32, i32); 9]> {
        let pad = self.pad.as_ref()?;
        let buttons: Vec<(i32, i32)> = pad.iter().map(|&[x, y]| (x, y)).collect();
        buttons.try_into().ok()
    }
}

/// The game's key: its application name and its title up to " - ", in lower case,
/// letters and digits with '-' between words.
pub fn key(window: &WindowInfo) -> String {
    let title = window.title.split(" - ").next().unwrap_or_default();
    let words: Vec<String> = format!("{} {title}", window.app_name)
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        "unnamed".into()
    } else {
        words.join("-")
    }
}

/// The games (by [`key`]'s start) whose arrow keys this project's end-to-end tests have
/// seen move the cell selection and do nothing else, so that the bot may try them in
/// place of clicks before any run of its own proved it: GNOME Sudoku 43 (its X11 and
/// Wayland application names) and the project's own web game. Elsewhere a click and a
/// key that work are kept (an arrow key may send a game back to its menu).
pub const ARROWS_SEEN_HARMLESS: [&str; 3] =
    ["gnome-sudoku", "org-gnome-sudoku", "chromium-web-sudoku"];

/// Whether the game keyed `key` is one of [`ARROWS_SEEN_HARMLESS`].
pub fn arrows_seen_harmless(key: &str) -> bool {
    ARROWS_SEEN_HARMLESS
        .iter()
        .any(|game| key == *game || key.starts_with(&format!("{game}-")))
}

/// Where the models are stored: `dir` when configured, else the XDG state directory.
pub fn folder(dir: Option<&Path>) -> Option<PathBuf> {
    match dir {
        Some(d) => Some(d.to_path_buf()),
        None => directories::ProjectDirs::from("", "", "sudoku-bot")
            .and_then(|d| d.state_dir().map(Path::to_path_buf)),
    }
    .map(|d| d.join("games"))
}

/// The stored model at `path`, if there is a readable one.
pub fn load(path: &Path) -> Option<Stored> {
    let text = std::fs::read_to_string(path).ok()?;
    let stored: Stored = toml::from_str(&text).ok()?;
    stored.method()?;
    Some(stored)
}

/// Stores `model` at `path` (its folder made as needed).
pub fn save(path: &Path, model: &Stored) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = toml::to_string(model).map_err(std::io::Error::other)?;
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn arrows_are_seen_harmless_only_in_the_games_named() {
        assert!(arrows_seen_harmless("gnome-sudoku-sudoku"));
        assert!(arrows_seen_harmless("org-gnome-sudoku-sudoku"));
        assert!(arrows_seen_harmless("chromium-web-sudoku"));
        assert!(!arrows_seen_harmless("gnome-sudokus-sudoku"));
        assert!(!arrows_seen_harmless("kaidoku-kaidoku"));
        assert!(!arrows_seen_harmless("xterm-play-sudoku"));
    }

    use super::*;
    use crate::screen::ScreenRect;

    fn window(app: &str, title: &str) -> WindowInfo {
        WindowInfo {
            id: 1,
            title: title.into(),
            app_name: app.into(),
            pid: None,
            rect: ScreenRect {
                x: 0,
                y: 0,
                width: 10,
                height: 10,
            },
            minimized: false,
            dialog: false,
        }
    }

    #[test]
    fn a_game_is_known_by_its_app_and_the_steady_part_of_its_title() {
        let playing = key(&window("Chromium", "Web Sudoku - Playing, mistakes 0"));
        let solved = key(&window("Chromium", "Web Sudoku - Solved 1, mistakes 0"));
        assert_eq!(playing, "chromium-web-sudoku");
        assert_eq!(playing, solved);
        assert_ne!(playing, key(&window("Gnome-sudoku", "Sudoku")));
    }

    #[test]
    fn a_stored_model_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games/x.toml");
        let model = Stored {
            method: "pad".into(),
            pad: Some((1..=9).map(|i| [i * 10, 5]).collect()),
            shows_selection: Some(true),
            latency: 40,
            after_click: 10,
            after_key: 2,
            arrows: false,
            version: VERSION,
            popover: Some("click-beside".into()),
            popover_at: Some([3, 4]),
            popover_evidence: Some("a click on r1c1 hid r1c2, r2c1".into()),
            pad_first: true,
            pad_first_evidence: Some("the pad's 5 then r1c1".into()),
        };
        save(&path, &model).unwrap();
        let back = load(&path).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.pad_buttons().unwrap()[8], (90, 5));
        assert_eq!(back.popover(), Some(Popover::ClickBeside(3, 4)));
        // A file from before popovers were stored: read, and silent about them.
        std::fs::write(
            &path,
            "method = \"click\"\nlatency = 40\nafter_click = 10\nafter_key = 2\narrows = false\n",
        )
        .unwrap();
        let old = load(&path).unwrap();
        assert_eq!(
            (old.version, old.popover(), old.pad_first),
            (1, None, false)
        );
        std::fs::write(&path, "method = \"wheel\"").unwrap();
        assert_eq!(load(&path), None);
    }
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Unless `[input] try_arrows` says otherwise, arrow keys may be tried in `window`'s
    /// game when it is one of [`ARROWS_SEEN_HARMLESS`].
    pub(super) fn allow_arrows_if_seen_harmless(&mut self, window: &WindowInfo) {
        let key = key(window);
        if self.config.input.try_arrows.is_none() && arrows_seen_harmless(&key) {
            info!("{key}: a game whose arrow keys were seen to move the selection and nothing else: arrow keys may be tried");
            self.config.input.try_arrows = Some(true);
        }
    }

    /// Before the first move in `window`'s game: the model stored for it, when there is
    /// one, is used, and learning skipped (said in -v either way).
    pub(super) fn recall(&mut self, window: &WindowInfo) {
        if self.model.memory_checked
            || !self.config.watch.remember
            || self.config.input.method.is_some()
        {
            return;
        }
        self.model.memory_checked = true;
        let Some(dir) = folder(self.config.watch.state_dir.as_deref()) else {
            return;
        };
        let key = key(window);
        let path = dir.join(format!("{key}.toml"));
        self.model.memory = Some(path.clone());
        let stored = load(&path)
            .filter(|s| s.method() != Some(InputMethod::Pad) || s.pad_buttons().is_some());
        let Some(stored) = stored else {
            info!("nothing stored of this game ({key}): learning how it takes digits");
            return;
        };
        let method = stored.method().unwrap_or_default();
        let popover = stored.popover();
        let m = &mut self.model;
        m.method = Some(method);
        m.pad = stored.pad_buttons();
        m.shows_selection = stored.shows_selection;
        m.latency = stored.latency;
        m.answered = true;
        m.confirmed = learn::CONFIRM_MOVES;
        m.palette_checked = true;
        m.pad_searched = true;
        m.cursor_probed = true;
        m.arrows = if stored.arrows {
            learn::Arrows::Preferred
        } else {
            learn::Arrows::Refused
        };
        m.popover = popover.unwrap_or_default();
        m.popover_unknown = popover.is_none();
        m.popover_evidence = stored.popover_evidence.clone();
        m.pad_first = stored.pad_first && method == InputMethod::Pad;
        m.pad_first_tried = true;
        m.pad_first_evidence = stored.pad_first_evidence.clone();
        m.recalled = true;
        // The stored pauses are what a trial of shorter ones and play settled on in an
        // earlier run: not tried shorter again (each trial loses a digit or two).
        m.trial = pace::Trial::Done;
        self.pace.after_click = stored.after_click;
        self.pace.after_key = stored.after_key;
        let how = if m.pad_first {
            format!(
                "the number pad picks a digit, a click on a cell enters it (learnt from: {})",
                stored.pad_first_evidence.as_deref().unwrap_or("not stored")
            )
        } else {
            learn::describe_method(method).to_string()
        };
        let popover = match popover {
            None => "stored before popovers were: whether a click opens one over the grid is looked at the first click".to_string(),
            Some(p) => match &stored.popover_evidence {
                Some(seen) => format!("{} (learnt from: {seen})", p.describe()),
                None => p.describe(),
            },
        };
        info!(
            "using what was learnt of this game before ({}): {how}; {popover}; {} ms after a click, {} ms after a key",
            path.display(),
            stored.after_click,
            stored.after_key
        );
    }

    /// After a puzzle was verified solved: stores what was learnt of the game in this
    /// run (a model that came from the store stays as it is).
    pub(super) fn remember(&mut self) {
        let Some(path) = self.model.memory.clone() else {
            return;
        };
        if (self.model.recalled && !self.model.store_outdated) || self.model.learning() {
            return;
        }
        let (popover, popover_at) = Stored::popover_name(self.model.popover);
        let stored = Stored {
            method: Stored::method_name(self.model.method.unwrap_or_default()).into(),
            pad: self
                .model
                .pad
                .map(|p| p.iter().map(|&(x, y)| [x, y]).collect()),
            shows_selection: self.model.shows_selection,
            latency: self.model.latency,
            after_click: self.pace.after_click,
            after_key: self.pace.after_key,
            arrows: self.model.arrows == learn::Arrows::Preferred,
            version: VERSION,
            popover,
            popover_at,
            popover_evidence: self.model.popover_evidence.clone(),
            pad_first: self.model.pad_first,
            pad_first_evidence: self.model.pad_first_evidence.clone(),
        };
        match save(&path, &stored) {
            Ok(()) => info!("stored what was learnt of this game in {}", path.display()),
            Err(e) => warn!(
                "could not store what was learnt of this game in {}: {e}",
                path.display()
            ),
        }
    }

    /// A stored model that a look in play contradicts (`why`): dropped, its file too,
    /// and the game learnt again from the next move.
    pub(super) fn forget_recalled(&mut self, why: &str) {
        if !self.model.recalled {
            return;
        }
        let memory = self.model.memory.take();
        if let Some(path) = &memory {
            let _ = std::fs::remove_file(path);
        }
        info!("dropped the model stored of this game ({why}); learning it again");
        self.model = learn::Model {
            memory,
            memory_checked: true,
            ..Default::default()
        };
        self.pace = pace::Pace::new(&self.config.delays);
    }
}
