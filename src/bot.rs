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
use crate::solver::{self, Solution};
use crate::vision::{ReadError, Reader, Reading};

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
}

/// One digit to enter into one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
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
    /// Right after the last move the game put a window of its own over the grid (its
    /// completion dialog), which hides the grid from the capture.
    CompletionWindow(String),
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
    /// A configured click point that cannot be used (bad configuration: exit 2).
    #[error("{0}")]
    Config(String),
    #[error("no playable puzzle appeared within {seconds:.1} s (last: {last})")]
    Timeout { seconds: f64, last: String },
    #[error("verification failed: {} still do not hold the solution after {rounds} rounds of re-entering them", cell_names(.cells))]
    NotVerified { cells: Vec<usize>, rounds: u32 },
    #[error("verification failed: {0}")]
    Unverifiable(String),
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

/// Where the cells of the grid lie on the screen right now.
#[derive(Debug, Clone)]
pub struct CellMap {
    centers: [ScreenPoint; 81],
    /// The grid's bounding box on the screen.
    pub grid: ScreenRect,
}

impl CellMap {
    /// Maps a reading of a capture to screen pixels. `window` is the window's client
    /// area; `region` the part of it that was read (window pixels). The config's grid
    /// override, when set, replaces the detected cell positions.
    pub fn new(
        reading: &Reading,
        window: ScreenRect,
        region: (u32, u32),
        config: &Config,
    ) -> CellMap {
        let [dx, dy] = config.grid.click_offset;
        let base_x = window.x as f32;
        let base_y = window.y as f32;
        let mut centers = [ScreenPoint { x: 0, y: 0 }; 81];
        if let (Some([ox, oy]), Some([cw, ch])) = (config.grid.origin, config.grid.cell_size) {
            for (i, c) in centers.iter_mut().enumerate() {
                let (r, col) = ((i / 9) as f32, (i % 9) as f32);
                *c = round(
                    base_x + ox + cw * (col + 0.5) + dx,
                    base_y + oy + ch * (r + 0.5) + dy,
                );
            }
            let grid = ScreenRect {
                x: (base_x + ox) as i32,
                y: (base_y + oy) as i32,
                width: (cw * 9.0).ceil() as u32,
                height: (ch * 9.0).ceil() as u32,
            };
            return CellMap { centers, grid };
        }
        let (rx, ry) = (base_x + region.0 as f32, base_y + region.1 as f32);
        for (i, c) in centers.iter_mut().enumerate() {
            let p = reading.cell_center(i);
            *c = round(rx + p.x + dx, ry + p.y + dy);
        }
        let xs = reading.corners.iter().map(|p| p.x);
        let ys = reading.corners.iter().map(|p| p.y);
        let (x0, x1) = xs.fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (y0, y1) = ys.fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let grid = ScreenRect {
            x: (rx + x0).floor() as i32,
            y: (ry + y0).floor() as i32,
            width: (x1 - x0).max(1.0).ceil() as u32,
            height: (y1 - y0).max(1.0).ceil() as u32,
        };
        CellMap { centers, grid }
    }

    /// The centre of cell `index` (0..81) on the screen.
    pub fn center(&self, index: usize) -> ScreenPoint {
        self.centers[index]
    }
}

/// Where the configured pad button for `digit` is on the screen, if a pad is configured.
fn pad_point(config: &Config, window: &ScreenRect, digit: u8) -> Option<ScreenPoint> {
    let pad = config.input.pad.as_ref()?;
    let [px, py] = *pad.get(usize::from(digit).checked_sub(1)?)?;
    Some(round(window.x as f32 + px, window.y as f32 + py))
}

/// Checks that the configuration's own click points (the grid override and the pad)
/// land inside the window; a point outside it is a configuration error.
fn check_configured_points(
    config: &Config,
    map: &CellMap,
    window: &ScreenRect,
) -> Result<(), BotError> {
    let inside = |p: ScreenPoint| window.contains(p.x, p.y);
    let overridden = config.grid.origin.is_some() || config.grid.click_offset != [0.0, 0.0];
    if overridden {
        if let Some(i) = (0..81).find(|&i| !inside(map.center(i))) {
            return Err(BotError::Config(format!(
                "grid.origin, grid.cell_size and grid.click_offset put {} at {}, outside the window ({}x{} at {},{})",
                cell_name(i), map.center(i), window.width, window.height, window.x, window.y
            )));
        }
    }
    if config.input.method == InputMethod::Pad {
        for d in 1..=9u8 {
            match pad_point(config, window, d) {
                Some(p) if inside(p) => {}
                p => {
                    return Err(BotError::Config(format!(
                        "input.pad puts button {d} at {}, outside the window ({}x{} at {},{})",
                        p.map(|p| p.to_string()).unwrap_or_else(|| "nowhere".into()),
                        window.width,
                        window.height,
                        window.x,
                        window.y
                    )))
                }
            }
        }
    }
    Ok(())
}

fn round(x: f32, y: f32) -> ScreenPoint {
    ScreenPoint {
        x: x.round() as i32,
        y: y.round() as i32,
    }
}

/// The moves that turn `current` into `solution`: every cell whose digit differs, row by
/// row (empty cells, and wrong digits when re-entering after verification).
pub fn plan_moves(current: &Grid, solution: &Grid, map: &CellMap) -> Vec<Move> {
    (0..81)
        .filter(|&i| current.cells()[i] != solution.cells()[i])
        .map(|i| Move {
            cell: i,
            digit: solution.cells()[i],
            at: map.center(i),
        })
        .collect()
}

/// The one place the bot asks the solver: the unique solution of what was read, or why
/// it must not be played (and which cells are to blame, when the solver can say).
pub fn unique_solution(grid: &Grid) -> Result<Grid, (String, Vec<usize>)> {
    match solver::solve(grid) {
        Solution::Unique(solution) => Ok(solution),
        Solution::Multiple(_) => Err((
            "the grid read has more than one solution".into(),
            Vec::new(),
        )),
        Solution::Unsolvable => Err(("the grid read has no solution".into(), Vec::new())),
        Solution::Invalid(conflicts) => {
            let reason = conflicts
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let mut cells: Vec<usize> = conflicts.iter().flat_map(|c| c.cells).collect();
            cells.sort_unstable();
            cells.dedup();
            Err((format!("the digits read clash: {reason}"), cells))
        }
    }
}

/// A cheap fingerprint of a capture: the mean brightness of 24x24 blocks of `area`
/// (the grid once known, else the whole picture), quantised to 16 levels so that noise
/// does not count as change, hashed with FNV-1a. Costs well under a millisecond.
pub fn fingerprint(picture: &RgbaImage, area: Option<(u32, u32, u32, u32)>) -> u64 {
    const BLOCKS: u32 = 24;
    let (x0, y0, w, h) = area.unwrap_or((0, 0, picture.width(), picture.height()));
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |v: u64| {
        for b in v.to_le_bytes() {
            hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(((picture.width() as u64) << 32) | picture.height() as u64);
    if w == 0 || h == 0 {
        return hash;
    }
    for by in 0..BLOCKS {
        for bx in 0..BLOCKS {
            let (sx0, sx1) = (
                x0 + bx * w / BLOCKS,
                x0 + ((bx + 1) * w / BLOCKS).max(bx * w / BLOCKS + 1),
            );
            let (sy0, sy1) = (
                y0 + by * h / BLOCKS,
                y0 + ((by + 1) * h / BLOCKS).max(by * h / BLOCKS + 1),
            );
            let (mut sum, mut n) = (0u64, 0u64);
            for y in (sy0..sy1.min(picture.height())).step_by(2) {
                for x in (sx0..sx1.min(picture.width())).step_by(2) {
                    let p = picture.get_pixel(x, y).0;
                    sum += p[0] as u64 * 3 + p[1] as u64 * 6 + p[2] as u64;
                    n += 10;
                }
            }
            feed(sum.checked_div(n).unwrap_or(0) / 16);
        }
    }
    hash
}

/// The bot: one window, one reader, one input device.
pub struct Bot<S: Screen, R: GridReader, I: Input> {
    screen: S,
    reader: R,
    input: I,
    config: Config,
    dry_run: bool,
    out: Box<dyn Write>,
    stop: Arc<AtomicBool>,
    /// Fingerprint of the last capture that was read, and the area it covers.
    last_seen: Option<u64>,
    grid_area: Option<(u32, u32, u32, u32)>,
    /// The solution of the last puzzle finished (played and verified, or printed).
    finished: Option<Grid>,
    /// Why the last picture that was read gave nothing to do.
    last_reason: String,
    /// When the last key or click was sent.
    last_input: Option<Instant>,
    /// The window that took the keyboard focus while the bot typed: the watch waits for
    /// it to let go rather than click the focus back.
    focus_thief: Option<String>,
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// A bot over `screen`, reading with `reader`, playing through `input` (never touched
    /// with `dry_run`, when moves go to `out` instead). `stop` ends the loop when set.
    pub fn new(
        screen: S,
        reader: R,
        input: I,
        config: Config,
        dry_run: bool,
        out: Box<dyn Write>,
        stop: Arc<AtomicBool>,
    ) -> Self {
        Bot {
            screen,
            reader,
            input,
            config,
            dry_run,
            out,
            stop,
            last_seen: None,
            grid_area: None,
            finished: None,
            last_reason: String::new(),
            last_input: None,
            focus_thief: None,
        }
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
        loop {
            if self.stopped() {
                return Ok(Outcome::Stopped);
            }
            match self.step()? {
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
        while !self.stopped() {
            match self.step() {
                Ok(Step::Done(Outcome::Stopped)) => break,
                Ok(Step::Done(outcome)) => info!("{}", describe(&outcome)),
                Ok(Step::Wait(reason)) => {
                    if reason != last_wait {
                        info!("waiting: {reason}");
                        last_wait = reason;
                    }
                }
                Err(e @ (BotError::Refused { .. } | BotError::FocusLost(_))) => warn!("{e}"),
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
        if let Some(solution) = self.finished {
            if agrees(&grid, &solution) {
                self.last_reason = "the puzzle in the window is already solved".into();
                return Ok(Step::Wait(self.last_reason.clone()));
            }
        }
        if grid.is_complete() {
            self.last_reason = "the grid in the window is already full".into();
            return Ok(Step::Wait(self.last_reason.clone()));
        }
        let solution = match unique_solution(&grid) {
            Ok(s) => s,
            Err((reason, mut cells)) => {
                self.last_reason = reason.clone();
                if cells.is_empty() {
                    cells = low_confidence_cells(&reading);
                }
                let all: Vec<usize> = (0..81).collect();
                self.reader.forget(&reading, &all);
                let picture_path = self.save_debug_picture(&picture, Some(&reading), &cells, seen);
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
        let moves = plan_moves(&grid, &solution, &map);
        info!("puzzle {} read, {} cells to fill", grid, moves.len());
        if self.dry_run {
            for m in &moves {
                writeln!(self.out, "{m}").map_err(BotError::Output)?;
            }
            self.out.flush().map_err(BotError::Output)?;
            self.finished = Some(solution);
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
        match self.play(&moves, &view, &map)? {
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
        let verified = match self.verify(&grid, &solution, &view, map, &before)? {
            Some(v) => v,
            None => return Ok(Step::Done(Outcome::Stopped)),
        };
        self.finished = Some(solution);
        self.last_seen = None;
        Ok(Step::Done(Outcome::Solved {
            puzzle: grid,
            solution,
            moves: moves.len(),
            verified,
        }))
    }

    /// Enters `moves`, row by row. Before each move the window must be unchanged, on
    /// the screen and unlocked, with every point the move clicks uncovered; before each
    /// key the game must have the focus; and the user must not have touched mouse or
    /// keyboard (a handful of X11 round trips a move, well under a millisecond).
    fn play(
        &mut self,
        moves: &[Move],
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Played, BotError> {
        self.wait_for_keys_released()?;
        let t = Instant::now();
        let delays = self.config.delays.clone();
        let method = self.config.input.method;
        // From here on the pointer is the bot's: where it is now, then where each click
        // leaves it.
        let mut left_pointer_at: Option<ScreenPoint> = Some(self.input.pointer()?);
        let mut selected: Option<usize> = None;
        for m in moves {
            if self.stopped() {
                return Ok(Played::Stopped);
            }
            let clicks_cell = !(method == InputMethod::Keys && selected.is_some());
            let pad = match method {
                InputMethod::Pad => pad_point(&self.config, &start.window.rect, m.digit),
                _ => None,
            };
            let points: Vec<ScreenPoint> =
                clicks_cell.then_some(m.at).into_iter().chain(pad).collect();
            if let Some(why) = self.unsafe_to_act(start, map, &points)? {
                return Ok(Played::Paused(why));
            }
            if let Some(expected) = left_pointer_at {
                self.check_pointer(expected, m.cell)?;
            }
            self.check_user(m.cell)?;
            // Once the game has taken a key, the focus leaving it means another window
            // took it: stop before even clicking.
            if selected.is_some() {
                if let Some(stop) = self.focus_lost(start, map)? {
                    return Ok(stop);
                }
            }
            if clicks_cell {
                self.input.click(m.at)?;
                left_pointer_at = Some(m.at);
                self.pause(delays.after_click);
            } else if let Some(from) = selected {
                for key in arrow_path(from, m.cell) {
                    if let Some(stop) = self.focus_lost(start, map)? {
                        return Ok(stop);
                    }
                    self.input.key(key)?;
                    self.pause(delays.after_arrow);
                }
            }
            match pad {
                Some(at) => {
                    self.input.click(at)?;
                    left_pointer_at = Some(at);
                }
                None => {
                    if let Some(stop) = self.focus_lost(start, map)? {
                        return Ok(stop);
                    }
                    self.input.key(Key::Digit(m.digit))?;
                }
            }
            selected = Some(m.cell);
            self.last_input = Some(Instant::now());
            self.pause(delays.after_key);
        }
        // The last move's own effect on the user checks (its key is not the user's).
        self.check_user(moves.last().map_or(0, |m| m.cell))?;
        info!(
            "entered {} digits in {} ms",
            moves.len(),
            t.elapsed().as_millis()
        );
        Ok(Played::All)
    }

    /// Why no input may go to the game now, else `None`: the window moved, was
    /// minimised, unmapped or closed; the screen is locked; something covers the grid;
    /// or one of `points` (where the next move clicks) is outside the window or covered.
    fn unsafe_to_act(
        &mut self,
        start: &WindowView,
        map: &CellMap,
        points: &[ScreenPoint],
    ) -> Result<Option<String>, BotError> {
        let now = self.screen.view()?;
        if now.window.rect != start.window.rect {
            return Ok(Some(
                "the window moved or changed size; looking again".into(),
            ));
        }
        if now.window.minimized {
            return Ok(Some("the window was minimised".into()));
        }
        if !now.viewable {
            return Ok(Some(
                "the game window is not on the screen (unmapped or on another workspace)".into(),
            ));
        }
        if let Some(why) = self.screen.locked()? {
            return Ok(Some(why));
        }
        if let Some(cover) = covered(&now, &map.grid) {
            return Ok(Some(cover));
        }
        Ok(points.iter().find_map(|&p| now.blocked_at(p)))
    }

    /// Fails when the user pressed a key, a button or the wheel, or moved a mouse, since
    /// the last look, or holds a key now.
    fn check_user(&mut self, next_cell: usize) -> Result<(), BotError> {
        if let Some(what) = self.input.user_activity()? {
            return Err(BotError::Interfered(format!(
                "{what} before {}",
                cell_name(next_cell)
            )));
        }
        if self.input.keys_held()? {
            return Err(BotError::Interfered(format!(
                "a key was pressed before {}",
                cell_name(next_cell)
            )));
        }
        Ok(())
    }

    /// `None` when the game has the keyboard focus. Else why the bot stops typing: the
    /// game itself went away (unmapped, minimised, moved: a pause), or another window
    /// took the focus.
    fn focus_lost(
        &mut self,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        let Some(thief) = self.focus_check()? else {
            return Ok(None);
        };
        Ok(Some(match self.unsafe_to_act(start, map, &[])? {
            Some(why) => Played::Paused(why),
            None => Played::FocusLost(thief),
        }))
    }

    /// `None` when the game has the keyboard focus, else which window has it. A click
    /// gives the focus a moment after it lands, so the game gets looks 1, 2, 4 ... 64
    /// ms apart (about 130 ms in all) before the focus is called lost.
    fn focus_check(&mut self) -> Result<Option<String>, BotError> {
        const LOOKS: u32 = 8;
        let mut elsewhere = None;
        for look in 0..LOOKS {
            elsewhere = self.screen.focus_elsewhere()?;
            if elsewhere.is_none() {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(1 << look));
        }
        Ok(elsewhere)
    }

    /// Looks at the grid again until it reads as `solution`, re-entering cells that did
    /// not take (at most `watch.verify_rounds` times). `puzzle` is what was read before
    /// playing. `None` when stopped.
    fn verify(
        &mut self,
        puzzle: &Grid,
        solution: &Grid,
        start: &WindowView,
        mut map: CellMap,
        before: &HashSet<u32>,
    ) -> Result<Option<Verification>, BotError> {
        let rounds = self.config.watch.verify_rounds;
        let mut wrong: Vec<usize> = Vec::new();
        let mut last_problem = String::from("nothing read yet");
        for round in 0..=rounds + 2 {
            self.pause(self.config.delays.settle.max(1) * (1 + round as u64 / 2));
            if self.stopped() {
                return Ok(None);
            }
            let view = self.screen.view()?;
            // The game answering the last move with a window of its own over the grid
            // (GNOME Sudoku's "Well done" dialog) is its way of saying the grid is solved.
            if let Some(w) = view
                .covering(&map.grid)
                .into_iter()
                .find(|w| !before.contains(&w.id) && w.same_app(&start.window))
            {
                info!("verified: the game opened {} over the grid", w.describe());
                return Ok(Some(Verification::CompletionWindow(w.title.clone())));
            }
            if let Some(cover) = covered(&view, &map.grid) {
                last_problem = cover;
                continue;
            }
            if !view.viewable {
                last_problem = "the game window is not on the screen".into();
                continue;
            }
            let capture = self.screen.capture()?;
            let (picture, region) = self.crop_to_region(capture);
            let picture = DynamicImage::ImageRgba8(picture);
            // Without the glyph cache: the check must not agree with the bot's own
            // reading merely because it reads through the same memory.
            let reading = match self.reader.read_fresh(&picture) {
                Ok(r) => r,
                Err(ReadError::Doubtful { reading, .. }) => *reading,
                Err(ReadError::NoGrid) => {
                    last_problem = "no grid found in the window".into();
                    continue;
                }
                Err(ReadError::Engine(e)) => return Err(BotError::Reader(e)),
            };
            // Digits that were there before playing must still read: if they do not,
            // the game is redrawing (GNOME Sudoku dims a solved grid before its dialog
            // opens) and typing now would hit whatever it is showing.
            let gone = (0..81)
                .filter(|&i| puzzle.cells()[i] != 0 && reading.grid.cells()[i] != puzzle.cells()[i])
                .count();
            if gone > 0 {
                last_problem =
                    format!("{gone} digits that were there before playing no longer read");
                continue;
            }
            map = CellMap::new(&reading, view.window.rect, region, &self.config);
            wrong = (0..81)
                .filter(|&i| reading.grid.cells()[i] != solution.cells()[i])
                .collect();
            if wrong.is_empty() {
                info!("verified: the grid reads as the solution");
                return Ok(Some(Verification::GridRead));
            }
            if round >= rounds {
                break;
            }
            info!(
                "{} cells did not take ({}); entering them again",
                wrong.len(),
                cell_names(&wrong)
            );
            let again = plan_moves(&reading.grid, solution, &map);
            match self.play(&again, &view, &map)? {
                Played::All => {}
                Played::Paused(reason) => {
                    info!("stopped typing: {reason}");
                    last_problem = reason;
                }
                Played::FocusLost(thief) => {
                    self.focus_thief = Some(thief.clone());
                    return Err(BotError::FocusLost(thief));
                }
                Played::Stopped => return Ok(None),
            }
        }
        if wrong.is_empty() {
            Err(BotError::Unverifiable(last_problem))
        } else {
            Err(BotError::NotVerified {
                cells: wrong,
                rounds,
            })
        }
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

    /// Fails when the pointer is not where the bot left it. The X server may not have
    /// moved it yet right after a synthetic motion (seen with no delays at all, and on
    /// a loaded machine), so it gets looks 2, 4, 8 ... 64 ms apart (about 130 ms in all)
    /// before it is called the user's doing: a hand on the mouse does not move back.
    fn check_pointer(&mut self, expected: ScreenPoint, next_cell: usize) -> Result<(), BotError> {
        const LOOKS: u32 = 7;
        for look in 1..=LOOKS {
            let now = self.input.pointer()?;
            if (now.x - expected.x).abs() <= 2 && (now.y - expected.y).abs() <= 2 {
                if look > 1 {
                    debug!("pointer reached {expected} only at look {look}");
                }
                return Ok(());
            }
            if look == LOOKS {
                return Err(BotError::Interfered(format!(
                    "the mouse moved from {expected} to {now} before {}",
                    cell_name(next_cell)
                )));
            }
            std::thread::sleep(Duration::from_millis(1 << look));
        }
        Ok(())
    }

    /// Blocks until no key is held (the Enter that started the bot may still be down).
    fn wait_for_keys_released(&mut self) -> Result<(), BotError> {
        let start = Instant::now();
        while self.input.keys_held()? {
            if start.elapsed() > Duration::from_secs(1) {
                return Err(BotError::Interfered("a key is held down".into()));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    /// Saves the capture with the doubtful cells framed in red, for the user to look at.
    /// A picture is saved once per fingerprint (a watch over an unreadable grid does
    /// not save the same picture every second), and only the newest `watch.debug_keep`
    /// pictures stay in the folder.
    fn save_debug_picture(
        &self,
        picture: &DynamicImage,
        reading: Option<&Reading>,
        cells: &[usize],
        fingerprint: u64,
    ) -> Option<PathBuf> {
        let dir = self
            .config
            .watch
            .debug_dir
            .clone()
            .unwrap_or_else(default_debug_dir);
        let path = dir.join(format!("refused-{fingerprint:016x}.png"));
        if path.is_file() {
            return Some(path);
        }
        let keep = self.config.watch.debug_keep;
        if keep == 0 {
            return None;
        }
        let mut canvas = picture.to_rgba8();
        if let Some(reading) = reading {
            for &i in cells {
                if let Some(cell) = reading.cells.get(i) {
                    let b = cell.cell_box;
                    for inset in 0..3 {
                        let rect =
                            imageproc::rect::Rect::at(b.x as i32 + inset, b.y as i32 + inset)
                                .of_size(
                                    (b.w as u32).saturating_sub(2 * inset as u32).max(1),
                                    (b.h as u32).saturating_sub(2 * inset as u32).max(1),
                                );
                        imageproc::drawing::draw_hollow_rect_mut(
                            &mut canvas,
                            rect,
                            image::Rgba([230, 0, 0, 255]),
                        );
                    }
                }
            }
        }
        let saved = std::fs::create_dir_all(&dir)
            .map_err(|e| e.to_string())
            .and_then(|_| canvas.save(&path).map_err(|e| e.to_string()));
        match saved {
            Ok(()) => {
                prune_debug_pictures(&dir, keep);
                Some(path)
            }
            Err(e) => {
                warn!("could not save the debug picture {}: {e}", path.display());
                None
            }
        }
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

/// Deletes the oldest `refused-*.png` pictures in `dir` beyond the newest `keep`.
fn prune_debug_pictures(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut pictures: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("refused-") && name.ends_with(".png")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if pictures.len() <= keep {
        return;
    }
    pictures.sort();
    for (_, path) in &pictures[..pictures.len() - keep] {
        if let Err(e) = std::fs::remove_file(path) {
            warn!(
                "could not delete the old debug picture {}: {e}",
                path.display()
            );
        }
    }
}

/// Where pictures of refused reads go when `watch.debug_dir` is not set.
pub fn default_debug_dir() -> PathBuf {
    std::env::temp_dir().join("sudoku-bot")
}

/// Why we must wait when a window stacked above covers `area`, else `None`.
fn covered(view: &WindowView, area: &ScreenRect) -> Option<String> {
    view.covering(area)
        .first()
        .map(|w| format!("{} covers the grid", w.describe()))
}

/// True when every digit of `grid` agrees with `solution`.
fn agrees(grid: &Grid, solution: &Grid) -> bool {
    grid.cells()
        .iter()
        .zip(solution.cells())
        .all(|(&g, &s)| g == 0 || g == s)
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

/// The grid's bounding box in picture pixels, clamped to the picture.
fn picture_area(reading: &Reading, width: u32, height: u32) -> (u32, u32, u32, u32) {
    let x0 = reading
        .corners
        .iter()
        .map(|p| p.x)
        .fold(f32::MAX, f32::min)
        .max(0.0) as u32;
    let y0 = reading
        .corners
        .iter()
        .map(|p| p.y)
        .fold(f32::MAX, f32::min)
        .max(0.0) as u32;
    let x1 = (reading
        .corners
        .iter()
        .map(|p| p.x)
        .fold(f32::MIN, f32::max)
        .ceil() as u32)
        .min(width);
    let y1 = (reading
        .corners
        .iter()
        .map(|p| p.y)
        .fold(f32::MIN, f32::max)
        .ceil() as u32)
        .min(height);
    (
        x0.min(width),
        y0.min(height),
        x1.saturating_sub(x0),
        y1.saturating_sub(y0),
    )
}

/// Arrow keys that move the selection from cell `from` to cell `to`.
pub fn arrow_path(from: usize, to: usize) -> Vec<Key> {
    let (fr, fc, tr, tc) = (
        (from / 9) as i32,
        (from % 9) as i32,
        (to / 9) as i32,
        (to % 9) as i32,
    );
    let mut keys = Vec::new();
    let vertical = if tr > fr { Key::Down } else { Key::Up };
    keys.extend(std::iter::repeat_n(
        vertical,
        (tr - fr).unsigned_abs() as usize,
    ));
    let horizontal = if tc > fc { Key::Right } else { Key::Left };
    keys.extend(std::iter::repeat_n(
        horizontal,
        (tc - fc).unsigned_abs() as usize,
    ));
    keys
}

/// One line for the log about a finished job.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved {
            moves,
            verified: Verification::GridRead,
            ..
        } => {
            format!("solved: entered {moves} digits; the grid reads as the solution")
        }
        Outcome::Solved {
            moves,
            verified: Verification::CompletionWindow(title),
            ..
        } => {
            format!("solved: entered {moves} digits; the game announced completion (window \"{title}\")")
        }
        Outcome::Planned { moves, .. } => format!("dry run: {moves} moves printed"),
        Outcome::Stopped => "stopped".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_path_goes_down_then_across() {
        assert_eq!(arrow_path(0, 10), vec![Key::Down, Key::Right]);
        assert_eq!(
            arrow_path(20, 0),
            vec![Key::Up, Key::Up, Key::Left, Key::Left]
        );
        assert!(arrow_path(5, 5).is_empty());
    }

    #[test]
    fn fingerprint_ignores_change_outside_the_area_but_not_inside() {
        let mut a = RgbaImage::from_pixel(200, 100, image::Rgba([255, 255, 255, 255]));
        let base = fingerprint(&a, Some((0, 0, 100, 100)));
        for y in 0..20 {
            for x in 150..190 {
                a.put_pixel(x, y, image::Rgba([0, 0, 0, 255]));
            }
        }
        assert_eq!(fingerprint(&a, Some((0, 0, 100, 100))), base);
        assert_ne!(
            fingerprint(&a, None),
            fingerprint(
                &RgbaImage::from_pixel(200, 100, image::Rgba([255; 4])),
                None
            )
        );
        for y in 40..60 {
            for x in 40..60 {
                a.put_pixel(x, y, image::Rgba([0, 0, 0, 255]));
            }
        }
        assert_ne!(fingerprint(&a, Some((0, 0, 100, 100))), base);
    }
}
