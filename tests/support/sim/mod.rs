//! A simulated sudoku app for driving the bot without a display: a recorded screenshot
//! of the app, the puzzle it shows, and an input device that plays into the simulated
//! board the way GNOME Sudoku does (click a cell to select it, type a digit to fill it).
//!
//! The screen, the reader and the input device all share one [`Game`], so what the bot
//! types shows up in the next capture and the next reading, and a test can script
//! trouble: lost key presses, a dialog over the grid, the user moving the mouse.
//!
//! Input goes where it would on a real desktop: a click on a point that another window
//! covers, or while the game is unmapped or the screen locked, reaches that other
//! thing and not the game; so does a key while another window has the focus. Such
//! input is recorded as [`Event::Elsewhere`], which no test may ever see.

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use image::{DynamicImage, Rgba, RgbaImage};
use sudoku_bot::bot::{Bot, Clock, GridReader};
use sudoku_bot::config::Config;
use sudoku_bot::grid::Verdict;
use sudoku_bot::input::{Input, InputError, Key, ScreenPoint};
use sudoku_bot::screen::{Elsewhere, Screen, ScreenError, ScreenRect, WindowInfo, WindowView};
use sudoku_bot::vision::geometry::Homography;
use sudoku_bot::vision::{CellReading, Method, Point, ReadError, Reading, Rect};
use sudoku_bot::Grid;

mod devices;
mod game;

pub use devices::{SimInput, SimReader, SimScreen};

/// A recorded screenshot with its label.
pub struct Fixture {
    pub picture: RgbaImage,
    pub grid: Grid,
    /// Outer corners of the grid in the picture (top-left, top-right, bottom-right,
    /// bottom-left), axis-aligned in these screenshots.
    pub corners: [Point; 4],
}

/// `fixtures/bot/NAME.png` with its label `fixtures/bot/NAME.toml` (`grid = "..."`,
/// `corners = [[x, y], ...]`).
pub fn fixture(name: &str) -> Fixture {
    let dir = super::repository().join("fixtures/bot");
    let picture = image::open(dir.join(format!("{name}.png")))
        .expect("fixture picture")
        .to_rgba8();
    let label: toml::Table = std::fs::read_to_string(dir.join(format!("{name}.toml")))
        .expect("fixture label")
        .parse()
        .expect("fixture label is TOML");
    let grid = Grid::parse(label["grid"].as_str().expect("grid")).expect("grid line");
    let c: Vec<Point> = label["corners"]
        .as_array()
        .expect("corners")
        .iter()
        .map(|p| {
            let p = p.as_array().expect("[x, y]");
            Point {
                x: p[0]
                    .as_float()
                    .or(p[0].as_integer().map(|v| v as f64))
                    .unwrap() as f32,
                y: p[1]
                    .as_float()
                    .or(p[1].as_integer().map(|v| v as f64))
                    .unwrap() as f32,
            }
        })
        .collect();
    Fixture {
        picture,
        grid,
        corners: [c[0], c[1], c[2], c[3]],
    }
}

/// What the simulated reader answers.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadMode {
    /// The board as it is.
    Truth,
    /// No grid in the picture.
    NoGrid,
    /// This grid instead of the board (a misread).
    Misread(Grid),
    /// Once the bot has typed, this grid instead of the board, through the reader's
    /// glyph cache (the cache echoing the bot's own answer); a fresh reading sees the
    /// board as it is.
    CacheEchoes(Grid),
    /// The reader says these cells are doubtful.
    Doubtful(Vec<usize>),
    /// This grid, whose digits clash, instead of the board: the reader refuses it with
    /// these cells doubtful.
    Clashing(Grid, Vec<usize>),
}

/// Something that happened at the input device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Click(ScreenPoint),
    Key(Key),
    /// Input that reached something other than the game (what it was, and why).
    Elsewhere(&'static str),
}

/// The colour of the simulated game's victory screen (all of it).
pub const VICTORY: Rgba<u8> = Rgba([250, 240, 200, 255]);

/// The simulated app and everything around it.
pub struct Game {
    pub picture: RgbaImage,
    pub corners: [Point; 4],
    pub givens: Grid,
    pub board: Grid,
    pub window: ScreenRect,
    pub app_pid: u32,
    pub minimized: bool,
    /// Windows stacked above the game, each with how many more looks it stays.
    pub above: Vec<(WindowInfo, usize)>,
    pub read_mode: ReadMode,
    /// Cells whose first digit is lost (the app was too slow).
    pub lose_first_digit: HashSet<usize>,
    /// Open a window of the app over the grid when the board is solved (GNOME Sudoku's
    /// "Well done" dialog).
    pub completion_dialog: bool,
    /// Once solved, the grid reads blank (GNOME Sudoku dims it) and the completion
    /// dialog opens only after this many more looks at the window.
    pub dim_then_dialog_after: Option<usize>,
    /// After this many clicks the user grabs the mouse (pointer jumps away).
    pub user_moves_mouse_after: Option<usize>,
    /// After this many digits the user holds a key.
    pub user_presses_key_after: Option<usize>,
    /// After this many digits the window moves by (dx, dy).
    pub window_moves_after: Option<(usize, i32, i32)>,
    /// After this many digits another app's window covers the grid, for this many views.
    pub covered_after: Option<(usize, usize)>,
    /// Pad button centres, window pixels (digit 1 first), for the "pad" input method.
    pub pad: Option<Vec<[f32; 2]>>,
    /// After this many digits another window takes the keyboard focus (for good).
    pub focus_stolen_after: Option<usize>,
    /// Who has the focus when the game has not.
    pub focus_elsewhere: Option<Elsewhere>,
    /// After this many digits no window has the keyboard focus (the window manager
    /// holds it, as between a window unmapped and the next one focused), until a click
    /// in the game gives it back; with `false`, no click does (no window manager).
    pub nobody_focused_after: Option<(usize, bool)>,
    /// After this many digits the input device refuses the next key, once (nothing
    /// sent): with `true` as input that would reach no program (the game unmapped
    /// since the bot's checks), with `false` as input another program would get.
    pub key_refused_after: Option<(usize, bool)>,
    /// After this many digits the screen locks, for this many looks.
    pub locked_after: Option<(usize, usize)>,
    pub locked_for: usize,
    /// After this many digits the game window is unmapped, for this many looks.
    pub unmapped_after: Option<(usize, usize)>,
    pub unmapped_for: usize,
    /// After this many digits a small override-redirect window (a notification bubble)
    /// pops up over this cell, for this many looks.
    pub popup_after: Option<(usize, usize, usize)>,
    /// After this many clicks the user clicks too, without moving the mouse.
    pub user_clicks_after: Option<usize>,
    /// The user's input the device has seen and not yet reported.
    pub user_input: Option<String>,
    /// The first click on an empty cell draws a text caret there that the reader takes
    /// for this digit, in this many reads after the click (then it blinks off).
    pub caret_read_as: Option<(u8, usize)>,
    /// Where that caret is: its cell, the digit, and the reads it has left.
    pub caret_shown: Option<(usize, u8, usize)>,
    /// Cells the second reading does not confirm.
    pub unconfirmed: Vec<usize>,
    /// Cells whose digits the reader reads with a low confidence (0.7, as Tesseract on
    /// via-sudoku's Hershey digits).
    pub unsure: Vec<usize>,
    /// Cells whose glyphs the reader was told to forget.
    pub forgotten: Vec<usize>,
    pub fresh_reads: usize,
    pub selected: Option<usize>,
    pub pointer: ScreenPoint,
    pub keys_held: bool,
    pub events: Vec<Event>,
    pub digits_typed: usize,
    pub reads: usize,
    pub captures: usize,
    /// The words of the game's dialog (what its completion window says).
    pub dialog_words: String,
    /// The words of a banner the game draws over the grid once solved.
    pub banner: Option<String>,
    /// The banner lies across this row only (else rows 4 to 6), and its words read
    /// only in a picture of its own rows (in the whole grid they are lost among the
    /// digits, as Tesseract loses a word drawn over a row of digits).
    pub banner_row: Option<usize>,
    /// The banner covers only the cells the player filled: its row's givens still
    /// read, and the covered cells hold ink no reader names.
    pub banner_spares_givens: bool,
    /// Once solved, the game shows a victory screen in place of the grid, with these
    /// words (none: a picture without words).
    pub victory: Option<String>,
    /// Words the window shows beside the grid all along (a label, a menu).
    pub label: String,
    /// Pictures of screen areas taken (for a message's words).
    pub area_captures: usize,
    /// Word readings done.
    pub word_reads: usize,
    /// When the board is full, the game opens a window of its own beside the grid
    /// ("Information") saying whether the grid is right.
    pub verdict_window: bool,
    /// The game's own solution: only this one counts as solved (a puzzle with several).
    pub stored: Option<Grid>,
    /// The last screen area captured.
    pub last_area: Option<ScreenRect>,
    /// Verdict windows opened so far (each a new window).
    pub verdicts: u32,
    /// The game changes the Nth digit typed into another digit.
    pub tamper_at: Option<usize>,
    /// While the board holds a digit twice in a row, column or box, the reader doubts
    /// every cell holding that digit, givens too (a fresh reading's rules, when the
    /// game put typed digits into the wrong cells: sudoku-1440's 7s).
    pub doubts_clashing_digit: bool,
    /// A clicked cell takes the focus only this long after the click: a key before
    /// then goes to the cell selected before.
    pub focus_delay: Option<std::time::Duration>,
    /// The focus is late only once this many digits were typed (a game that slows
    /// down in the middle of play, as Kivy does on a busy machine).
    pub focus_late_from: usize,
    /// `focus_delay` is the length of the game's frame: a click takes the focus at the
    /// end of the frame it came in (Kivy: keys go to the focused field at once, clicks
    /// wait for the frame's end), not that long after the click.
    pub focus_frames: bool,
    pending_focus: Option<(Option<usize>, Instant)>,
    /// For each digit key that went to the cell selected before (the focus had not
    /// followed the click yet): how many digit keys came before it.
    pub misplaced_at: Vec<usize>,
    /// Sets this stop flag once this many digits were typed (Ctrl+C mid-play).
    pub stop_after: Option<(usize, Arc<AtomicBool>)>,
    /// Captures taken after the stop flag of `stop_after` was set.
    pub looks_after_stop: usize,
    /// Clicks and keys sent while a window of another app was over the grid.
    pub input_while_covered: usize,
    /// A number palette keeps this digit chosen: a click on an empty cell enters it.
    pub palette: Option<u8>,
    /// The next this many captures fail (the window being redrawn).
    pub failing_captures: u32,
    /// Once this many digits were typed, the next N readings miss the given in this
    /// cell (a popover over it): (digits, cell, readings).
    pub hide_given: Option<(usize, usize, usize)>,
    /// The selected cell is drawn framed (most games; the bare sim shows nothing).
    pub draws_selection: bool,
    /// The selected cell's whole row and column are shaded grey, nothing else (pygame's
    /// "Game Sudoku"): a click on a cell of the selected row changes nothing in it.
    pub selection_cross: bool,
    /// Arrow keys do nothing.
    pub arrows_ignored: bool,
    /// Any arrow key leaves the puzzle for the game's menu (no grid, for good).
    pub menu_on_arrows: bool,
    /// The application name its windows carry ("Gnome-sudoku": GNOME Sudoku's, whose
    /// arrow keys the bot may try by default; another name makes it a game unknown).
    pub app_name: &'static str,
    pub in_menu: bool,
    /// Cells are text fields that keep their first character: a digit typed into a
    /// cell that shows one changes nothing.
    pub text_fields: bool,
    /// The game is busy for these clicks (counted from 1): they do nothing.
    pub busy_at_clicks: Vec<usize>,
    /// A slow game: what a click or a key does shows only this long after it.
    pub latency: Option<std::time::Duration>,
    /// Clicks and keys sent to a slow game, not yet taken, with when they were sent.
    pending: Vec<(Instant, Event)>,
    /// Clicks do nothing (a keyboard-only game: arrow keys move its cursor).
    pub clicks_ignored: bool,
    /// The selection is drawn grey until the first click, taken or not (a terminal's
    /// hollow cursor that fills when the window takes the focus).
    pub cursor_hollow_until_click: bool,
    /// Every key the game takes clears its screen and draws it again (curses'
    /// `clear()` then `refresh()`, as play-sudoku does): for this long after the key
    /// the grid shows its lines and no digits.
    pub redraws_after_key: Option<std::time::Duration>,
    /// When the last key was taken, for `redraws_after_key`.
    pub(super) key_taken_at: Option<Instant>,
    /// Arrow keys jump over the givens (to the next cell a digit can go in).
    pub arrows_skip_givens: bool,
    /// Arrow keys scroll the page up by this many pixels (a page that leaves them to
    /// the browser); the selection stays.
    pub arrows_scroll: Option<u32>,
    /// A click on a cell selects it and opens a number wheel over it and its eight
    /// neighbours: the neighbours' places are wedges showing 1 to 8 (a click on one
    /// enters its digit into the wheel's cell), the centre shows the cell's digit.
    /// Digit keys go to the wheel's cell; the wheel stays open after them. Escape, or
    /// a click outside the wheel (which does nothing else), closes it.
    pub wheel: bool,
    /// Only Escape closes the wheel (a click outside it does nothing at all).
    pub wheel_closes_on_escape_only: bool,
    /// The cell the open wheel is around.
    pub wheel_at: Option<usize>,
    /// The pad is a palette chosen first (Number Place): a click on a pad button picks
    /// its digit, a click on a cell then enters it (or empties a cell that holds it);
    /// nothing is selected, and keys do nothing. The pad's buttons are drawn as solid
    /// bars 30 px tall, 4 + 2 x digit px wide, which the reader reads as their digit.
    pub pad_first: bool,
    /// The digit picked on such a pad.
    pub picked: Option<u8>,
    /// The time the game and the bot share: the game's latency and focus delay count
    /// on it.
    pub clock: Arc<SimClock>,
}

/// The simulation's clock: its time moves only when the bot sleeps, and a sleep ends
/// at once, so a test runs the same however busy the machine is.
pub struct SimClock {
    start: Instant,
    passed: Mutex<Duration>,
}

impl Default for SimClock {
    fn default() -> Self {
        SimClock {
            start: Instant::now(),
            passed: Mutex::new(Duration::ZERO),
        }
    }
}

impl SimClock {
    /// The simulated time since the game started.
    pub fn passed(&self) -> Duration {
        *self.passed.lock().unwrap()
    }
}

impl Clock for SimClock {
    fn now(&self) -> Instant {
        self.start + self.passed()
    }
    fn sleep(&self, duration: Duration) {
        *self.passed.lock().unwrap() += duration;
    }
}

pub type Shared = Rc<RefCell<Game>>;

/// A window of another app over the middle of `over`.
pub fn other_window(id: u32, title: &str, over: ScreenRect) -> WindowInfo {
    WindowInfo {
        id,
        title: title.into(),
        app_name: "Other".into(),
        pid: Some(7),
        rect: ScreenRect {
            x: over.x + 100,
            y: over.y + 200,
            width: 300,
            height: 100,
        },
        minimized: false,
        dialog: false,
    }
}

/// Captured standard output of a dry run.
#[derive(Clone, Default)]
pub struct Output(pub Rc<RefCell<Vec<u8>>>);

impl Output {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).expect("utf-8 output")
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A configuration for tests: no pauses, a short --once timeout, debug pictures in `dir`.
pub fn quick_config(debug_dir: &Path) -> Config {
    let mut c = Config::default();
    c.delays.after_click = 0;
    c.delays.after_key = 0;
    c.delays.after_arrow = 0;
    c.delays.settle = 1;
    c.watch.interval = 1;
    c.watch.once_timeout = 300;
    c.watch.debug_dir = Some(PathBuf::from(debug_dir));
    // Each test learns its game: nothing stored in the user's state directory.
    c.watch.remember = false;
    c
}

pub type SimBot = Bot<SimScreen, SimReader, SimInput>;

/// A bot over the simulated game; `dry_run`: through a device that sends nothing, so
/// that the moves go to the returned output.
pub fn bot(game: &Shared, config: Config, dry_run: bool) -> (SimBot, Output, Arc<AtomicBool>) {
    let out = Output::default();
    let stop = Arc::new(AtomicBool::new(false));
    let bot = Bot::new(
        SimScreen(game.clone()),
        SimReader(game.clone()),
        SimInput(game.clone(), !dry_run),
        config,
        Box::new(out.clone()),
        stop.clone(),
    )
    .with_clock(game.borrow().clock.clone());
    (bot, out, stop)
}
