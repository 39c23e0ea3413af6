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

use crate::config::{Config, InputMethod, SeveralSolutions};
use crate::grid::{cell_name, cell_names, Grid, Verdict};
use crate::input::{Input, InputError, Key, ScreenPoint};
use crate::screen::{Screen, ScreenError, ScreenRect, WindowView};
use crate::vision::{ReadError, Reader, Reading};

mod caret;
mod cells;
mod debug_pictures;
mod evidence;
mod fingerprint;
mod learn;
mod pace;
mod play;
mod verify;

pub use cells::arrow_path;
use cells::{check_configured_points, pad_point, plan_moves, CellMap};
use fingerprint::fingerprint;
use learn::Observed;

/// Reads a grid from a picture; [`crate::vision::Reader`] is the real one.
pub trait GridReader {
    /// Reads the grid, using (and adding to) what the reader learnt from earlier pictures.
    fn read(&mut self, picture: &DynamicImage, debug: Option<&Path>) -> Result<Reading, ReadError>;
    /// Reads the grid without anything learnt earlier, and keeps nothing learnt.
    fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError>;
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
    fn read(&mut self, picture: &DynamicImage, debug: Option<&Path>) -> Result<Reading, ReadError> {
        Reader::read(self, picture, debug)
    }
    fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        Reader::read_fresh(self, picture)
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
    #[error("verification failed: {0}")]
    Unverifiable(String),
    #[error("the game says the grid is wrong: {words} ({from})")]
    GameSaysWrong { words: String, from: String },
    #[error("entered all digits; the game's response could not be confirmed: {response}{}", picture_suffix(.picture))]
    Unconfirmed {
        response: String,
        picture: Option<PathBuf>,
    },
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
    /// The pauses between inputs, learnt from the game (the configured delays first).
    pace: pace::Pace,
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
            pace,
            model: learn::Model::default(),
            playing: None,
            focus_box: None,
            pointer_trail: Default::default(),
        }
    }

    /// Plays another window from now on (the game's window closed and opened again):
    /// what was known of the old one's grid is dropped, the last puzzle is kept.
    pub fn set_screen(&mut self, screen: S) {
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

    /// Plays one puzzle: waits for a playable grid (at most `watch.once_timeout`), plays
    /// it, verifies it.
    pub fn run_once(&mut self) -> Result<Outcome, BotError> {
        let start = Instant::now();
        let timeout = Duration::from_millis(self.config.watch.once_timeout);
        let mut failed_captures = 0;
        loop {
            if self.stopped() {
                return Ok(Outcome::Stopped);
            }
            let step = self.step();
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
                    if start.elapsed() >= timeout {
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
                    | BotError::Unverifiable(_)
                    | BotError::GameSaysWrong { .. }
                    | BotError::Unconfirmed { .. }),
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

    /// One pass: look at the window, and play the puzzle in it if there is a new one.
    pub fn step(&mut self) -> Result<Step, BotError> {
        // The user's input while the bot watches: read it now, so that what is left to
        // see when play starts is recent.
        let user_active = self.input.user_activity()?;
        let view = self.screen.view()?;
        if view.window.minimized {
            return Ok(Step::Wait("the window is minimised".into()));
        }
        if !view.viewable {
            return Ok(Step::Wait(
                "the game window is not on the screen (unmapped or on another workspace)".into(),
            ));
        }
        if let Some(why) = self.screen.locked()? {
            return Ok(Step::Wait(why));
        }
        let capture = self.screen.capture()?;
        let (picture, region) = self.crop_to_region(capture);
        let seen = fingerprint(&picture, self.grid_area);
        if self.last_seen == Some(seen) {
            return Ok(Step::Wait(format!(
                "{} (nothing changed)",
                self.last_reason
            )));
        }
        if let Some(cover) = self.cover_over_known_grid(&view, region) {
            return Ok(Step::Wait(cover));
        }
        let rgba = picture;
        let picture = DynamicImage::ImageRgba8(rgba.clone());
        let t = Instant::now();
        let read = self.reader.read(&picture, None);
        debug!("read the capture in {} ms", t.elapsed().as_millis());
        let reading = match read {
            Ok(reading) => reading,
            Err(ReadError::NoGrid) => {
                self.last_seen = Some(seen);
                self.last_reason = "no sudoku grid in the window".into();
                return Ok(Step::Wait(self.last_reason.clone()));
            }
            // Digits of the bot's own that went to the wrong cells (a game that took
            // the focus late) clash with the givens: play goes on with the puzzle it
            // was playing, and types over them.
            Err(ReadError::Doubtful { reading, .. })
                if self.playing.is_some_and(|(puzzle, solution, _)| {
                    same_puzzle_half_played(&reading.grid, &puzzle, &solution)
                }) =>
            {
                info!("the grid reads with clashes in cells the bot typed into; going on with the same puzzle");
                *reading
            }
            // The solved grid of the last puzzle under a banner whose words read as
            // clashing digits: covered, nothing to refuse.
            Err(ReadError::Doubtful { reading, .. })
                if self.finished.is_some_and(|(puzzle, solution)| {
                    still_the_last_puzzle(&reading.grid, &puzzle, &solution).is_some()
                }) =>
            {
                self.last_seen = Some(seen);
                self.last_reason =
                    "the last puzzle's solved grid is partly covered (what covers it reads as clashing digits)"
                        .into();
                return Ok(Step::Wait(self.last_reason.clone()));
            }
            Err(ReadError::Doubtful {
                reason,
                cells,
                reading,
            }) => {
                let map = CellMap::new(&reading, view.window.rect, region, &self.config);
                if let Some(cover) = covered(&view, &map.grid) {
                    return Ok(Step::Wait(cover));
                }
                self.last_seen = Some(seen);
                self.last_reason = format!("the grid could not be read: {reason}");
                self.reader.forget(&reading, &cells);
                let picture_path = self.save_debug_picture(&picture, Some(&reading), &cells, seen);
                return Err(BotError::Refused {
                    reason,
                    cells,
                    picture: picture_path,
                });
            }
            Err(ReadError::Engine(e)) => return Err(BotError::Reader(e)),
        };
        let map = CellMap::new(&reading, view.window.rect, region, &self.config);
        if let Some(cover) = covered(&view, &map.grid) {
            return Ok(Step::Wait(cover));
        }
        self.grid_area = Some(picture_area(&reading, picture.width(), picture.height()));
        // Fingerprint the grid area from now on, so a clock elsewhere does not wake us.
        let seen = fingerprint(&rgba, self.grid_area);
        self.last_seen = Some(seen);

        let grid = reading.grid;
        if let Some((old_puzzle, old_solution)) = self.finished {
            if let Some(why) = still_the_last_puzzle(&grid, &old_puzzle, &old_solution) {
                self.last_reason = why;
                return Ok(Step::Wait(self.last_reason.clone()));
            }
        }
        if grid.is_complete() {
            self.last_reason = "the grid in the window is already full".into();
            return Ok(Step::Wait(self.last_reason.clone()));
        }
        // A puzzle whose play was interrupted (a pause) goes on from what is seen, with
        // the same puzzle and solution: it is not solved again from the half-filled grid,
        // where a given hidden by the game's popover (left open by the pause) would
        // read as an empty cell. Only the puzzle's empty cells are typed into.
        if let Some((puzzle, solution, _)) = self.playing {
            if !same_puzzle_half_played(&grid, &puzzle, &solution) {
                self.playing = None;
            }
        }
        let (puzzle, mut solution, several) = if let Some(resumed) = self.playing {
            info!("going on with the puzzle that was interrupted");
            resumed
        } else {
            // Several solutions: play one, when every digit was read with confidence (the
            // second reading below must confirm them all as well).
            let play_one = self.config.puzzle.several_solutions == SeveralSolutions::Play
                && low_confidence_cells(&reading).is_empty();
            let verdict = if play_one {
                reading.verdict.clone()
            } else {
                reading
                    .verdict
                    .clone()
                    .unique_only(|| low_confidence_cells(&reading))
            };
            let (solution, several) = match verdict {
                Verdict::Unique(solution) => (solution, false),
                Verdict::Several(solution) => (solution, true),
                Verdict::Doubtful { reason, mut cells } => {
                    self.last_reason = reason.clone();
                    if cells.is_empty() {
                        cells = low_confidence_cells(&reading);
                    }
                    let all: Vec<usize> = (0..81).collect();
                    self.reader.forget(&reading, &all);
                    let picture_path =
                        self.save_debug_picture(&picture, Some(&reading), &cells, seen);
                    return Err(BotError::Refused {
                        reason,
                        cells,
                        picture: picture_path,
                    });
                }
            };
            // A second reading, sharing no cache with the first, must agree on every digit.
            let unconfirmed = self
                .reader
                .confirm(&picture, &reading)
                .map_err(|e| match e {
                    ReadError::Engine(e) => BotError::Reader(e),
                    other => BotError::Reader(other.to_string()),
                })?;
            if !unconfirmed.is_empty() {
                let all: Vec<usize> = (0..81).collect();
                self.reader.forget(&reading, &all);
                let reason = format!(
                    "a second reading does not confirm {} of the digits read",
                    unconfirmed.len()
                );
                self.last_reason = reason.clone();
                let picture_path =
                    self.save_debug_picture(&picture, Some(&reading), &unconfirmed, seen);
                return Err(BotError::Refused {
                    reason,
                    cells: unconfirmed,
                    picture: picture_path,
                });
            }
            (grid, solution, several)
        };
        self.playing = Some((puzzle, solution, several));
        let mut moves = plan_moves(&grid, &solution, &map);
        moves.retain(|m| puzzle.cells()[m.cell] == 0);
        info!("puzzle {} read, {} cells to fill", grid, moves.len());
        if several {
            info!("the puzzle has more than one solution; playing one of them");
        }
        if !self.input.sends() {
            for m in &moves {
                writeln!(self.out, "{m}").map_err(BotError::Output)?;
            }
            self.out.flush().map_err(BotError::Output)?;
            self.playing = None;
            self.finished = Some((puzzle, solution));
            return Ok(Step::Done(Outcome::Planned {
                puzzle: grid,
                moves: moves.len(),
            }));
        }
        check_configured_points(&self.config, &map, &view.window.rect)?;
        if let Some(what) = user_active.or(self.input.user_activity()?) {
            self.last_seen = None;
            return Ok(Step::Wait(format!(
                "the user is at the mouse or keyboard ({what}); waiting for a pause"
            )));
        }
        if let Some(thief) = self.focus_thief.clone() {
            if self.screen.focus_elsewhere()?.as_ref() == Some(&thief) {
                self.last_seen = None;
                return Ok(Step::Wait(format!(
                    "{thief} has the keyboard focus; waiting for it to let go"
                )));
            }
            self.focus_thief = None;
        }
        let before: HashSet<u32> = view.above.iter().map(|w| w.id).collect();
        match self.play(&moves, &puzzle, &view, &map)? {
            Played::All => {}
            Played::Paused(reason) => {
                info!("stopped typing: {reason}");
                self.last_seen = None;
                return Ok(Step::Wait(reason));
            }
            Played::FocusLost(thief) => {
                self.last_seen = None;
                self.focus_thief = Some(thief.clone());
                return Err(BotError::FocusLost(thief));
            }
            Played::Stopped => return Ok(Step::Done(Outcome::Stopped)),
        }
        let verified = self.verify(&puzzle, &mut solution, several, &view, map, &before);
        // Whatever came of it, this puzzle had its turn: the watch plays the next one.
        self.playing = None;
        self.finished = Some((puzzle, solution));
        self.last_seen = None;
        let Some(verified) = verified? else {
            return Ok(Step::Done(Outcome::Stopped));
        };
        Ok(Step::Done(Outcome::Solved {
            puzzle,
            solution,
            moves: moves.len(),
            verified,
            several,
        }))
    }

    /// Cuts the capture to the configured region; returns the picture and its offset in
    /// the window.
    fn crop_to_region(&self, capture: RgbaImage) -> (RgbaImage, (u32, u32)) {
        match self.config.window.region {
            Some(r) if r.x < capture.width() && r.y < capture.height() => {
                let w = r.width.min(capture.width() - r.x);
                let h = r.height.min(capture.height() - r.y);
                (
                    image::imageops::crop_imm(&capture, r.x, r.y, w, h).to_image(),
                    (r.x, r.y),
                )
            }
            _ => (capture, (0, 0)),
        }
    }

    /// When the last grid position is known and a window covers it, why we wait.
    fn cover_over_known_grid(&self, view: &WindowView, region: (u32, u32)) -> Option<String> {
        let (x, y, w, h) = self.grid_area?;
        let area = ScreenRect {
            x: view.window.rect.x + (region.0 + x) as i32,
            y: view.window.rect.y + (region.1 + y) as i32,
            width: w,
            height: h,
        };
        covered(view, &area)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Sleeps `ms` milliseconds, waking early when stopped.
    fn pause(&self, ms: u64) {
        let end = Instant::now() + Duration::from_millis(ms);
        while !self.stopped() {
            let now = Instant::now();
            if now >= end {
                break;
            }
            std::thread::sleep((end - now).min(Duration::from_millis(50)));
        }
    }
}

/// Whether `grid` is `puzzle` being played: every given reads the same (a few may read
/// empty, hidden by a popover the pause left open), and the other cells are empty or
/// hold the solution, but for some wrong digits the bot will type over (at most 20). A
/// new puzzle has other givens in most of these places.
fn same_puzzle_half_played(grid: &Grid, puzzle: &Grid, solution: &Grid) -> bool {
    let (g, p, s) = (grid.cells(), puzzle.cells(), solution.cells());
    let given_changed = (0..81).any(|i| p[i] != 0 && g[i] != 0 && g[i] != p[i]);
    let givens_hidden = (0..81).filter(|&i| p[i] != 0 && g[i] == 0).count();
    let wrong = (0..81)
        .filter(|&i| p[i] == 0 && g[i] != 0 && g[i] != s[i])
        .count();
    !given_changed && givens_hidden <= 9 && wrong <= 20
}

/// Why we must wait when a window stacked above covers `area`, else `None`.
fn covered(view: &WindowView, area: &ScreenRect) -> Option<String> {
    view.covering(area)
        .first()
        .map(|w| format!("{} covers the grid", w.describe()))
}

/// Why the grid read is still the last puzzle played (`puzzle` as read then, and its
/// `solution`), so that there is nothing to play: it is solved, or the solved grid is
/// partly covered (a banner, a fading animation). `None` for a new puzzle, or the same
/// puzzle dealt again (its givens alone).
fn still_the_last_puzzle(grid: &Grid, puzzle: &Grid, solution: &Grid) -> Option<String> {
    if grid == solution {
        return Some("the puzzle in the window is already solved".into());
    }
    let read: Vec<usize> = (0..81).filter(|&i| grid.cells()[i] != 0).collect();
    let agree = read
        .iter()
        .filter(|&&i| grid.cells()[i] == solution.cells()[i])
        .count();
    // The player's digits of the last puzzle still show: the grid is that solution
    // with some cells hidden or misread under something drawn over them.
    let entries_show = read.iter().any(|&i| puzzle.cells()[i] == 0);
    let mostly_agree = read.len() >= 17 && agree * 10 >= read.len() * 7;
    (entries_show && mostly_agree).then(|| {
        format!(
            "the last puzzle's solved grid is partly covered ({} of its cells do not read as before)",
            81 - agree
        )
    })
}

/// Cells read with confidence below 0.8: the likely culprits of an unsolvable read.
fn low_confidence_cells(reading: &Reading) -> Vec<usize> {
    reading
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.digit.is_some() && c.confidence < 0.8)
        .map(|(i, _)| i)
        .collect()
}

/// When the grid at `area` (x, y, width, height) fills less than two fifths of
/// `picture`: the grid and one cell around it, cut out, with its top-left corner.
fn grid_with_margin(
    picture: &RgbaImage,
    (x, y, w, h): (u32, u32, u32, u32),
) -> Option<(u32, u32, RgbaImage)> {
    let (pw, ph) = picture.dimensions();
    if u64::from(w) * u64::from(h) * 5 >= u64::from(pw) * u64::from(ph) * 2 {
        return None;
    }
    let margin = w.max(h) / 9;
    let x0 = x.saturating_sub(margin).min(pw);
    let y0 = y.saturating_sub(margin).min(ph);
    let x1 = x.saturating_add(w).saturating_add(margin).min(pw);
    let y1 = y.saturating_add(h).saturating_add(margin).min(ph);
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    Some((
        x0,
        y0,
        image::imageops::crop_imm(picture, x0, y0, x1 - x0, y1 - y0).to_image(),
    ))
}

/// The grid's bounding box in picture pixels (x, y, width, height), clamped to the
/// picture.
fn picture_area(reading: &Reading, width: u32, height: u32) -> (u32, u32, u32, u32) {
    let (lo, hi) = crate::vision::Point::bounds(&reading.corners);
    let (x0, y0) = (lo.x.max(0.0) as u32, lo.y.max(0.0) as u32);
    let x1 = (hi.x.ceil() as u32).min(width);
    let y1 = (hi.y.ceil() as u32).min(height);
    (
        x0.min(width),
        y0.min(height),
        x1.saturating_sub(x0),
        y1.saturating_sub(y0),
    )
}

/// One line for the log about a finished job.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved {
            moves,
            verified: Verification::GridRead,
            several,
            ..
        } => {
            let which = if *several {
                " played (the puzzle has several; this is one of them)"
            } else {
                ""
            };
            format!("solved: entered {moves} digits; the grid reads as the solution{which}")
        }
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
