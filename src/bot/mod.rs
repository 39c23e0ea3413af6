//! The watch loop: capture -> read -> solve -> plan -> act -> verify, over a window.
//!
//! The outside world sits behind three small traits so the loop runs in tests without a
//! display: the window ([`Screen`]), the reader ([`GridReader`]) and the input device
//! ([`Input`]). One pass of the loop ([`Bot::step`]) either waits (nothing new, no grid,
//! a dialog over the grid, a minimised window) or plays one puzzle to the end.
//!
//! Safety rules, checked while playing (the README's safety section lists them):
//! - before each move the window must be on the screen, at the same place and size,
//!   the screen unlocked, nothing stacked over the grid, and every point the move will
//!   click inside the window and uncovered (else the bot stops typing and waits);
//! - before each key the game must have the keyboard focus (else the bot stops and says
//!   which window has it: the watch waits for that window to let go, --once fails);
//! - the user's own input, any key, button, wheel or motion (else the bot stops with an
//!   error), and the pointer where the bot left it;
//! - a puzzle read as invalid, unsolvable or with several solutions is never typed, and
//!   every digit read is confirmed by a second reading that shares no cache with the
//!   first before anything is typed.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use image::{DynamicImage, RgbaImage};
use tracing::{debug, info, warn};

use crate::config::{Config, InputMethod};
use crate::grid::{cell_name, cell_names, Grid};
use crate::input::{Input, InputError, Key, ScreenPoint};
use crate::screen::{Screen, ScreenError, ScreenRect, WindowView};
use crate::vision::{ReadError, Reader, Reading};

mod area;
mod beliefs;
mod caret;
mod cells;
mod clock;
mod debug_pictures;
mod evidence;
mod fingerprint;
mod learn;
mod look;
pub mod marks;
mod memory;
mod pace;
mod play;
mod puzzle;
mod safety;
mod step;
mod trial;
mod verify;

use area::{covered, grid_with_margin, picture_area};
pub use cells::arrow_path;
use cells::{pad_point, plan_moves, CellMap};
pub use clock::{Clock, RealClock};
use fingerprint::fingerprint;
use learn::Observed;
pub use memory::ARROWS_SEEN_HARMLESS;

/// Reads a grid from a picture; [`crate::vision::Reader`] is the real one.
pub trait GridReader {
    /// Reads the grid, using (and adding to) what the reader learnt from earlier pictures:
    /// the first reading, not yet accepted ([`crate::vision::acceptance::accepted`] decides, on [`GridReader::confirm`]).
    fn read(&mut self, picture: &DynamicImage, debug: Option<&Path>) -> Result<Reading, ReadError>;
    /// Reads the grid without anything learnt earlier, and keeps nothing learnt.
    fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError>;
    /// Reads the grid in the middle of play: as `read`, but a doubtful reading (digits
    /// the game put in the wrong cells clash) forgets nothing learnt before it.
    fn read_in_play(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        self.read(picture, None)
    }
    /// Reads every digit of `reading` (read from `picture`) again by a second path that
    /// shares nothing with the first one's cache; returns the cells where it disagrees
    /// or cannot confirm the digit.
    fn confirm(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
    ) -> Result<Vec<usize>, ReadError>;
    /// Forgets what was learnt from the glyphs in `cells` of `reading`.
    fn forget(&mut self, reading: &Reading, cells: &[usize]);
    /// The words in a picture of a game's message (a dialog, a banner), one line.
    fn read_words(&mut self, picture: &DynamicImage) -> Result<String, ReadError>;
}

impl GridReader for Reader {
    /// The first reading: the bot accepts it by the one rule
    /// ([`crate::vision::acceptance::accepted`]) before acting on it.
    fn read(&mut self, picture: &DynamicImage, debug: Option<&Path>) -> Result<Reading, ReadError> {
        Reader::read_unconfirmed(self, picture, debug)
    }
    fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        Reader::read_fresh(self, picture)
    }
    fn read_in_play(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        Reader::read_in_play(self, picture)
    }
    fn confirm(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
    ) -> Result<Vec<usize>, ReadError> {
        Reader::confirm(self, picture, reading)
    }
    fn forget(&mut self, reading: &Reading, cells: &[usize]) {
        Reader::forget(self, reading, cells)
    }
    fn read_words(&mut self, picture: &DynamicImage) -> Result<String, ReadError> {
        Reader::read_words(self, picture)
    }
}

/// One digit to enter into one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Move {
    /// Cell index 0..81, row by row.
    pub cell: usize,
    pub digit: u8,
    /// The cell's centre on the screen (where the click goes).
    pub at: ScreenPoint,
    /// The cell shows another digit now: it is cleared before the digit is typed (a
    /// text field keeps its first character when typed over).
    pub clear: bool,
}

impl std::fmt::Display for Move {
    /// `r1c3=4 at (512,330)`: the dry-run line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={} at {}", cell_name(self.cell), self.digit, self.at)
    }
}

/// How the bot knew the app's grid holds the solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verification {
    /// A capture after playing read as the solution.
    GridRead,
    /// After the last move the game said the puzzle is solved, in a window of its own
    /// (`from` is `window "TITLE"`) or a banner over the grid.
    Message { from: String, words: String },
}

/// What a finished job produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The puzzle was played and the app's grid holds the solution.
    Solved {
        puzzle: Grid,
        solution: Grid,
        moves: usize,
        verified: Verification,
        /// The puzzle had several solutions and this is the one played.
        several: bool,
    },
    /// Dry run: the moves were printed, nothing was sent.
    Planned { puzzle: Grid, moves: usize },
    /// Ctrl+C (or the stop flag) ended the job.
    Stopped,
}

/// Why the bot stopped without finishing.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error(transparent)]
    Screen(#[from] ScreenError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("the reader failed: {0}")]
    Reader(String),
    #[error("not playing this puzzle: {reason}{}{}", cells_suffix(.cells), picture_suffix(.picture))]
    Refused {
        reason: String,
        cells: Vec<usize>,
        picture: Option<PathBuf>,
    },
    #[error("stopped: {0} while the bot was playing (the user took over)")]
    Interfered(String),
    #[error("stopped typing: the keyboard focus is on {0}, not the game")]
    FocusLost(String),
    /// The first moves did not show how the game takes digits.
    #[error("could not learn how the game takes digits: {0}")]
    Unlearnt(String),
    /// A configured click point that cannot be used (bad configuration: exit 2).
    #[error("{0}")]
    Config(String),
    #[error("no playable puzzle appeared within {seconds:.1} s (last: {last})")]
    Timeout { seconds: f64, last: String },
    #[error("verification failed: {} still do not hold the solution after {rounds} rounds of re-entering them", cell_names(.cells))]
    NotVerified { cells: Vec<usize>, rounds: u32 },
    #[error("the game says the grid is wrong: {words} ({from})")]
    GameSaysWrong { words: String, from: String },
    #[error("entered all digits; the game's response could not be confirmed: {response}{}", picture_suffix(.picture))]
    Unconfirmed {
        response: String,
        picture: Option<PathBuf>,
    },
    /// The grid reads as the solution played, and the game draws some of its digits in
    /// a colour seen on neither the givens nor the typed digits: errors by its rules.
    #[error("entered all digits, but the game marks {} as errors (drawn in rgb({}, {}, {}), a colour not on its givens or typed digits): not solved", cell_names(.cells), .colour[0], .colour[1], .colour[2])]
    ErrorMarks { cells: Vec<usize>, colour: [u8; 3] },
    /// The grid reads as a solution of a puzzle that has several as read, and the game
    /// said nothing: it may play by other rules (a variant), so nothing proves it solved.
    #[error("entered all digits; the puzzle has several solutions as read, so the game may use other rules; the game did not confirm{}", said(.words))]
    OneOfSeveral { words: String },
    #[error("cannot write the moves: {0}")]
    Output(std::io::Error),
}

fn cells_suffix(cells: &[usize]) -> String {
    if cells.is_empty() {
        String::new()
    } else {
        format!(" (doubtful cells: {})", cell_names(cells))
    }
}

/// What the window's words said, for an error that ends on them ("" for no words).
fn said(words: &str) -> String {
    if words.trim().is_empty() {
        String::new()
    } else {
        format!(" (the window's text reads {})", evidence::quote(words))
    }
}

fn picture_suffix(picture: &Option<PathBuf>) -> String {
    picture
        .as_ref()
        .map(|p| format!("; picture saved to {}", p.display()))
        .unwrap_or_default()
}

/// The result of one pass of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Nothing to do now, and why (for logs and the --once timeout message).
    Wait(String),
    /// A job ended.
    Done(Outcome),
}

/// How a round of playing ended.
enum Played {
    All,
    /// Stopped typing for a reason that may pass (window moved, something covers the grid).
    Paused(String),
    /// Stopped typing because another window has the keyboard focus (described).
    FocusLost(String),
    Stopped,
}

/// The bot: one window, one reader, one input device.
pub struct Bot<S: Screen, R: GridReader, I: Input> {
    screen: S,
    reader: R,
    input: I,
    config: Config,
    out: Box<dyn Write>,
    stop: Arc<AtomicBool>,
    /// Fingerprint of the last capture that was read, and the area it covers.
    last_seen: Option<u64>,
    grid_area: Option<(u32, u32, u32, u32)>,
    /// The last puzzle finished (played and verified, or printed): as read, and its
    /// solution.
    finished: Option<(Grid, Grid)>,
    /// Why the last picture that was read gave nothing to do.
    last_reason: String,
    /// When the last key or click was sent.
    last_input: Option<Instant>,
    /// The window that took the keyboard focus while the bot typed: the watch waits for
    /// it to let go rather than click the focus back.
    focus_thief: Option<String>,
    /// How many times in a row play paused because no window had the keyboard focus
    /// (a click on the game gives it back); see [`safety::MAX_UNFOCUSED`].
    unfocused: u32,
    /// The pauses between inputs, learnt from the game (the configured delays first).
    pace: pace::Pace,
    /// Whether a look in the last round of play slowed the pace: the cells that
    /// round left wrong were typed before, and say nothing of the pace now.
    slowed_in_play: bool,
    /// The puzzle being played (as read before the first move), its solution, and
    /// whether it has several: kept across pauses so that play goes on where it was.
    playing: Option<(Grid, Grid, bool)>,
    /// How the game takes digits and how fast, learnt from its answers to the first
    /// moves (when `[input] method` does not pin it).
    model: learn::Model,
    /// The box (in the pictures read) of the cell the last move went to: where a game
    /// with text-field cells draws its caret.
    focus_box: Option<crate::vision::Rect>,
    /// The last few places the bot put the pointer, newest last.
    pointer_trail: std::collections::VecDeque<ScreenPoint>,
    /// The window as it was before the puzzle's first move (its words are compared
    /// with the window's when the grid is gone after the last).
    before_play: Option<DynamicImage>,
    /// The clock every wait, time-out and pace reads and sleeps on.
    clock: Arc<dyn Clock>,
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// A bot over `screen`, reading with `reader`, playing through `input`, or, when that
    /// device sends nothing (a dry run, [`Input::sends`]), printing the moves to `out`.
    /// `stop` ends the loop when set.
    pub fn new(
        screen: S,
        reader: R,
        input: I,
        config: Config,
        out: Box<dyn Write>,
        stop: Arc<AtomicBool>,
    ) -> Self {
        let pace = pace::Pace::new(&config.delays);
        let mut input = input;
        input.aim(screen.game_window());
        Bot {
            screen,
            reader,
            input,
            config,
            out,
            stop,
            last_seen: None,
            grid_area: None,
            finished: None,
            last_reason: String::new(),
            last_input: None,
            focus_thief: None,
            unfocused: 0,
            pace,
            slowed_in_play: false,
            model: learn::Model::default(),
            playing: None,
            focus_box: None,
            pointer_trail: Default::default(),
            before_play: None,
            clock: Arc::new(RealClock),
        }
    }

    /// The same bot on `clock` (a simulation's, which the test controls) instead of
    /// the system's.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Plays another window from now on (the game's window closed and opened again):
    /// what was known of the old one's grid is dropped, the last puzzle is kept.
    pub fn set_screen(&mut self, screen: S) {
        self.input.aim(screen.game_window());
        self.screen = screen;
        self.last_seen = None;
        self.grid_area = None;
        self.focus_thief = None;
    }

    /// The input device (tests look at what was sent).
    pub fn input(&self) -> &I {
        &self.input
    }

    /// When the bot last sent a key or a click.
    pub fn last_input(&self) -> Option<Instant> {
        self.last_input
    }

    /// The pauses in use after a click and after a key (ms).
    pub fn pace(&self) -> (u64, u64) {
        (self.pace.after_click, self.pace.after_key)
    }

    /// The hypotheses about the game's pace held now, as `-v` says them.
    pub fn hypotheses(&self) -> Vec<String> {
        let held = self.model.beliefs.held();
        held.iter().map(|b| b.claim.to_string()).collect()
    }

    /// Plays one puzzle: waits for a playable grid (at most `watch.once_timeout`, counted
    /// again after each pause in play), plays it, verifies it.
    pub fn run_once(&mut self) -> Result<Outcome, BotError> {
        let mut start = self.now();
        let mut restarts = 0;
        let timeout = Duration::from_millis(self.config.watch.once_timeout);
        let mut failed_captures = 0;
        loop {
            if self.stopped() {
                return Ok(Outcome::Stopped);
            }
            let sent_before = self.last_input;
            let step = self.step();
            // Time spent playing (then paused) is not time waiting for a puzzle, a few
            // times over.
            if self.last_input != sent_before && restarts < 5 {
                restarts += 1;
                start = self.now();
            }
            if let Err(e @ BotError::Screen(ScreenError::Capture { .. })) = &step {
                // A capture can fail while the window is being redrawn: look again, at
                // most three times in a row.
                failed_captures += 1;
                if failed_captures <= 3 {
                    warn!("{e}; trying again");
                    self.pause(self.config.watch.interval);
                    continue;
                }
            } else {
                failed_captures = 0;
            }
            match step? {
                Step::Done(outcome) => return Ok(outcome),
                Step::Wait(reason) => {
                    debug!("waiting: {reason}");
                    if self.since(start) >= timeout {
                        return Err(BotError::Timeout {
                            seconds: timeout.as_secs_f64(),
                            last: reason,
                        });
                    }
                    self.pause(self.config.watch.interval);
                }
            }
        }
    }

    /// Watches the window until stopped, playing every new puzzle. Refused puzzles are
    /// reported and skipped; a closed window or the user taking over ends the watch.
    pub fn watch(&mut self) -> Result<(), BotError> {
        let mut last_wait = String::new();
        let mut failed_captures = 0;
        while !self.stopped() {
            let step = self.step();
            if matches!(step, Err(BotError::Screen(ScreenError::Capture { .. }))) {
                // A capture can fail while the window is being redrawn or closed: look
                // again (a closed window shows as such at the next look).
                failed_captures += 1;
                if failed_captures <= 3 {
                    if let Err(e) = step {
                        warn!("{e}; trying again");
                    }
                    self.pause(self.config.watch.interval);
                    continue;
                }
            } else {
                failed_captures = 0;
            }
            match step {
                Ok(Step::Done(Outcome::Stopped)) => break,
                // The daemon says each puzzle's end without -v (not with --quiet).
                Ok(Step::Done(outcome)) if tracing::enabled!(tracing::Level::WARN) => {
                    eprintln!("sudoku-bot: {}", describe(&outcome))
                }
                Ok(Step::Done(outcome)) => info!("{}", describe(&outcome)),
                Ok(Step::Wait(reason)) => {
                    if reason != last_wait {
                        info!("waiting: {reason}");
                        last_wait = reason;
                    }
                }
                // One puzzle that could not be played or proven solved does not end the
                // watch: it is reported, and the next puzzle gets its turn.
                Err(
                    e @ (BotError::Refused { .. }
                    | BotError::FocusLost(_)
                    | BotError::NotVerified { .. }
                    | BotError::GameSaysWrong { .. }
                    | BotError::Unconfirmed { .. }
                    | BotError::OneOfSeveral { .. }
                    | BotError::ErrorMarks { .. }),
                ) => {
                    warn!("{e}");
                    self.last_seen = None;
                }
                Err(e) => return Err(e),
            }
            self.pause(self.config.watch.interval);
        }
        Ok(())
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Sleeps `ms` milliseconds, waking early when stopped.
    fn pause(&self, ms: u64) {
        let end = self.now() + Duration::from_millis(ms);
        while !self.stopped() {
            let now = self.now();
            if now >= end {
                break;
            }
            self.clock.sleep((end - now).min(Duration::from_millis(50)));
        }
    }

    /// The time now, on the bot's clock.
    fn now(&self) -> Instant {
        self.clock.now()
    }

    /// The time passed since `then`, on the bot's clock.
    fn since(&self, then: Instant) -> Duration {
        self.clock.since(then)
    }
}

/// One line for the log about a finished job.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        // Only a puzzle with one solution is proven solved by its grid (verify.rs).
        Outcome::Solved {
            moves,
            verified: Verification::GridRead,
            ..
        } => format!("solved: entered {moves} digits; the grid reads as the solution"),
        Outcome::Solved {
            moves,
            verified: Verification::Message { from, words },
            ..
        } => {
            format!(
                "solved: entered {moves} digits; the game says {} ({from})",
                evidence::quote(words)
            )
        }
        Outcome::Planned { moves, .. } => format!("dry run: {moves} moves printed"),
        Outcome::Stopped => "stopped".into(),
    }
}
