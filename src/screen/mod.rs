//! The game window on the screen: finding it among the desktop's windows (xcap), capturing
//! it, and checking that it is still where it was and that nothing covers the grid.
//!
//! xcap lists and captures windows; its positions are the client area's, in root-window
//! (screen) pixels, which is also what synthetic input uses. The per-batch safety checks
//! need a handful of window properties many times a second, so they go through one
//! persistent X11 connection (x11rb) instead: xcap opens a new connection per property.

use image::RgbaImage;
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::xproto::{Atom, AtomEnum, ConnectionExt, ImageFormat, MapState, Window};
use x11rb::rust_connection::RustConnection;

mod grabs;
mod program;
mod x11;
mod x11_input;
pub use program::Program;
pub use x11::X11Screen;
use x11::X11;
pub use x11_input::X11Input;

pub use crate::window::{ScreenRect, WindowInfo};

/// What went wrong with the screen or a window.
#[derive(Debug, thiserror::Error)]
pub enum ScreenError {
    #[error("cannot reach the display ({0}): sudoku-bot needs an X11 session (is DISPLAY set?)")]
    NoDisplay(String),
    #[error("X11 request failed: {0}")]
    X11(String),
    /// The connection to the X server broke: the server (or the session) ended.
    #[error("lost the connection to the X server (did the session end?): {0}")]
    DisplayGone(String),
    #[error("cannot list windows: {0}")]
    List(String),
    #[error("cannot capture window {window}: {reason}")]
    Capture { window: String, reason: String },
    /// A Wayland backend (Mutter's D-Bus interfaces and PipeWire, KWin's, wlroots')
    /// failed.
    #[error("Wayland: {0}")]
    Wayland(String),
    #[error("window {0} was closed")]
    Gone(String),
    #[error("no window matches \"{wanted}\"; windows open: {}", list_or_none(.candidates))]
    NoMatch {
        wanted: String,
        candidates: Vec<String>,
    },
    #[error("{} windows match \"{wanted}\" equally well: {}; give the exact title", .candidates.len(), .candidates.join(", "))]
    Ambiguous {
        wanted: String,
        candidates: Vec<String>,
    },
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        // xcap lists only the windows a window manager manages.
        "none (is a window manager running?)".to_string()
    } else {
        names.join(", ")
    }
}

impl From<x11rb::errors::ConnectionError> for ScreenError {
    fn from(e: x11rb::errors::ConnectionError) -> Self {
        match e {
            x11rb::errors::ConnectionError::IoError(_) => ScreenError::DisplayGone(e.to_string()),
            _ => ScreenError::X11(e.to_string()),
        }
    }
}

impl From<x11rb::errors::ReplyError> for ScreenError {
    fn from(e: x11rb::errors::ReplyError) -> Self {
        match e {
            x11rb::errors::ReplyError::ConnectionError(c) => c.into(),
            _ => ScreenError::X11(e.to_string()),
        }
    }
}

/// How a window was matched to the name the user gave, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchKind {
    ExactTitle,
    AppName,
    Substring,
}

impl std::fmt::Display for MatchKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MatchKind::ExactTitle => "exact title",
            MatchKind::AppName => "application name",
            MatchKind::Substring => "part of the title",
        })
    }
}

/// A test of one window against the wanted name.
type Matcher<'a> = dyn Fn(&WindowInfo) -> bool + 'a;

/// Picks the window the user means by `wanted`: the exact title first, then the
/// application name (case-insensitive), then a case-insensitive substring of the title.
/// Within the first kind that matches anything, main windows win over dialogs of the
/// same app; if more than one window is left, that is an error listing them.
pub fn choose_window<'a>(
    windows: &'a [WindowInfo],
    wanted: &str,
) -> Result<(&'a WindowInfo, MatchKind), ScreenError> {
    let lower = wanted.to_lowercase();
    let usable: Vec<&WindowInfo> = windows
        .iter()
        .filter(|w| w.rect.width > 1 && w.rect.height > 1)
        .collect();
    let kinds: [(MatchKind, &Matcher); 3] = [
        (MatchKind::ExactTitle, &|w| w.title == wanted),
        (MatchKind::AppName, &|w| {
            !w.app_name.is_empty() && w.app_name.to_lowercase() == lower
        }),
        (MatchKind::Substring, &|w| {
            !lower.is_empty() && w.title.to_lowercase().contains(&lower)
        }),
    ];
    for (kind, matches) in kinds {
        let found: Vec<&WindowInfo> = usable.iter().copied().filter(|w| matches(w)).collect();
        if found.is_empty() {
            continue;
        }
        let main: Vec<&WindowInfo> = found.iter().copied().filter(|w| !w.dialog).collect();
        let pick = if main.is_empty() { found } else { main };
        if pick.len() == 1 {
            return Ok((pick[0], kind));
        }
        return Err(ScreenError::Ambiguous {
            wanted: wanted.to_string(),
            candidates: pick.iter().map(|w| w.describe()).collect(),
        });
    }
    Err(ScreenError::NoMatch {
        wanted: wanted.to_string(),
        candidates: usable
            .iter()
            .filter(|w| !w.title.is_empty())
            .map(|w| w.describe())
            .collect(),
    })
}

/// Every top-level window xcap can capture, topmost first.
pub fn list_windows() -> Result<Vec<WindowInfo>, ScreenError> {
    let x11 = X11::connect()?;
    let windows = xcap::Window::all().map_err(|e| ScreenError::List(e.to_string()))?;
    let mut out = Vec::with_capacity(windows.len());
    for w in windows {
        // A window can vanish while we ask about it; skip it then.
        let (Ok(id), Ok(x), Ok(y), Ok(width), Ok(height)) =
            (w.id(), w.x(), w.y(), w.width(), w.height())
        else {
            continue;
        };
        out.push(WindowInfo {
            id,
            // _NET_WM_NAME, else the old-style WM_NAME (xterm sets only that).
            title: x11
                .title(id)
                .ok()
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| w.title().unwrap_or_default()),
            app_name: w.app_name().unwrap_or_default(),
            pid: w.pid().ok(),
            rect: ScreenRect {
                x,
                y,
                width,
                height,
            },
            minimized: w.is_minimized().unwrap_or(false),
            dialog: x11.is_dialog(id).unwrap_or(false),
        });
    }
    Ok(out)
}

/// Why no input may go to a game window that exists but is not viewable.
pub const NOT_ON_SCREEN: &str =
    "the game window is not on the screen (unmapped or on another workspace)";

/// The chosen window as the bot sees it at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowView {
    pub window: WindowInfo,
    /// False when the window is not on the screen although it exists: unmapped, on
    /// another workspace, or one of its ancestors unmapped.
    pub viewable: bool,
    /// Every visible window stacked above it, topmost first, with `rect` its whole
    /// frame (title bar and borders included). On X11 that is every mapped window the
    /// server stacks above the game's frame: managed windows and override-redirect ones
    /// (menus, tooltips, notification bubbles, screen lockers) alike.
    pub above: Vec<WindowInfo>,
}

impl WindowView {
    /// The windows above that overlap `area` (screen pixels).
    pub fn covering(&self, area: &ScreenRect) -> Vec<&WindowInfo> {
        self.above
            .iter()
            .filter(|w| w.rect.intersects(area))
            .collect()
    }

    /// Why a click at `at` would not reach the game, else `None`: the window is not
    /// viewable, the point lies outside its client area, or another window covers it.
    pub fn blocked_at(&self, at: crate::input::ScreenPoint) -> Option<String> {
        if !self.viewable {
            return Some(NOT_ON_SCREEN.into());
        }
        if self.window.minimized {
            return Some("the game window is minimised".into());
        }
        if !self.window.rect.contains(at.x, at.y) {
            return Some(format!(
                "{at} lies outside the game window ({}x{} at {},{})",
                self.window.rect.width,
                self.window.rect.height,
                self.window.rect.x,
                self.window.rect.y
            ));
        }
        self.above
            .iter()
            .find(|w| w.rect.contains(at.x, at.y))
            .map(|w| format!("{} covers {at}", w.describe()))
    }
}

/// Who has the keyboard focus when the game has not, in a few words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elsewhere {
    /// No program's window: none at all, or the window manager's own (between two
    /// windows, as when one was unmapped). A key would reach no program, and a click
    /// on the game gives it the focus back.
    Nobody(String),
    /// Another window, described, or no window while keys go to another program.
    Window(String),
}

impl std::fmt::Display for Elsewhere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Elsewhere::Nobody(who) | Elsewhere::Window(who) => f.write_str(who),
        }
    }
}

/// The window the bot plays, behind a trait so tests can replay recorded screenshots.
pub trait Screen {
    /// Where the window is now, and what is stacked above it. [`ScreenError::Gone`]
    /// when it was closed.
    fn view(&mut self) -> Result<WindowView, ScreenError>;
    /// A picture of the window's client area.
    fn capture(&mut self) -> Result<RgbaImage, ScreenError>;
    /// A picture of what the screen shows in `area` (screen pixels, clipped to the
    /// screen): a message window of the game's, for its words.
    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError>;
    /// `None` when the game window (or a window inside it) has the keyboard focus, so
    /// that keys go to the game; else who has it.
    fn focus_elsewhere(&mut self) -> Result<Option<Elsewhere>, ScreenError>;
    /// Why no input may be sent now because the screen is locked or blanked, else
    /// `None`.
    fn locked(&mut self) -> Result<Option<String>, ScreenError>;
    /// Whether a capture may show the screen as it was a frame or more ago (a
    /// compositor's stream), so that the time an input took to show says nothing about
    /// the game. The bot then does not learn the game from its first moves.
    fn captures_lag(&self) -> bool {
        false
    }
    /// The game's window when input goes to it through X11 (the input device then
    /// checks every key and click against it).
    fn game_window(&self) -> Option<&WindowInfo> {
        None
    }
}

/// A boxed screen is a screen: the backend is chosen at run time.
impl<T: Screen + ?Sized> Screen for Box<T> {
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        (**self).view()
    }
    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        (**self).capture()
    }
    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        (**self).capture_area(area)
    }
    fn focus_elsewhere(&mut self) -> Result<Option<Elsewhere>, ScreenError> {
        (**self).focus_elsewhere()
    }
    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        (**self).locked()
    }
    fn captures_lag(&self) -> bool {
        (**self).captures_lag()
    }
    fn game_window(&self) -> Option<&WindowInfo> {
        (**self).game_window()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(id: u32, title: &str, app: &str, dialog: bool) -> WindowInfo {
        WindowInfo {
            id,
            title: title.into(),
            app_name: app.into(),
            pid: Some(id / 10),
            rect: ScreenRect {
                x: 0,
                y: 0,
                width: 400,
                height: 300,
            },
            minimized: false,
            dialog,
        }
    }

    #[test]
    fn exact_title_beats_app_name_and_substring() {
        let ws = vec![
            win(10, "Sudoku Help", "Yelp", false),
            win(20, "Sudoku", "Gnome-sudoku", false),
            win(30, "Web Sudoku - Chromium", "Chromium", false),
        ];
        let (w, kind) = choose_window(&ws, "Sudoku").unwrap();
        assert_eq!((w.id, kind), (20, MatchKind::ExactTitle));
        let (w, kind) = choose_window(&ws, "gnome-sudoku").unwrap();
        assert_eq!((w.id, kind), (20, MatchKind::AppName));
        let (w, kind) = choose_window(&ws, "web sudoku").unwrap();
        assert_eq!((w.id, kind), (30, MatchKind::Substring));
    }

    #[test]
    fn main_window_beats_its_dialogs() {
        let ws = vec![
            win(11, "Well done", "Gnome-sudoku", true),
            win(12, "Sudoku", "Gnome-sudoku", false),
        ];
        let (w, kind) = choose_window(&ws, "Gnome-sudoku").unwrap();
        assert_eq!((w.id, kind), (12, MatchKind::AppName));
    }

    #[test]
    fn none_or_several_list_the_candidates() {
        let ws = vec![
            win(10, "Terminal", "XTerm", false),
            win(20, "Sudoku 1", "A", false),
            win(30, "Sudoku 2", "B", false),
        ];
        let err = choose_window(&ws, "Solitaire").unwrap_err().to_string();
        assert!(err.contains("no window matches \"Solitaire\""), "{err}");
        assert!(err.contains("\"Terminal\" (XTerm"), "{err}");
        let err = choose_window(&ws, "sudoku").unwrap_err().to_string();
        assert!(err.contains("2 windows match"), "{err}");
        assert!(
            err.contains("\"Sudoku 1\"") && err.contains("\"Sudoku 2\""),
            "{err}"
        );
    }

    #[test]
    fn rectangles_overlap_only_when_they_share_pixels() {
        let a = ScreenRect {
            x: 0,
            y: 0,
            width: 10,
            height: 10,
        };
        assert!(a.intersects(&ScreenRect {
            x: 9,
            y: 9,
            width: 5,
            height: 5
        }));
        assert!(!a.intersects(&ScreenRect {
            x: 10,
            y: 0,
            width: 5,
            height: 5
        }));
        assert!(a.contains(9, 9) && !a.contains(10, 9));
    }
}
