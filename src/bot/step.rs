//! One pass of the watch loop, stage by stage: look at the window, read the capture,
//! choose the puzzle to play and its solution, then act on it (print the moves, or play
//! them and verify). Each stage either hands its result to the next or ends the pass
//! with a [`Step`] that says why.

use std::collections::HashSet;
use std::io::Write;

use image::{DynamicImage, RgbaImage};
use tracing::{debug, info};

use super::area::{covered, picture_area};
use super::cells::{check_configured_points, plan_moves, CellMap};
use super::fingerprint::fingerprint;
use super::puzzle::{low_confidence_cells, same_puzzle_half_played, still_the_last_puzzle};
use super::{Bot, BotError, GridReader, Outcome, Played, Step};
use crate::config::SeveralSolutions;
use crate::grid::{Grid, Verdict};
use crate::input::Input;
use crate::screen::{Screen, WindowView};
use crate::vision::acceptance::accepted;
use crate::vision::{ReadError, Reading};

/// A stage's answer: go on with its result, or end the pass with this step.
// A few of these a pass, never stored: the size of the step is not worth a box.
#[allow(clippy::large_enum_variant)]
enum Next<T> {
    Go(T),
    End(Step),
}

/// Ends the pass with the step a stage gave, or takes the stage's result.
macro_rules! go {
    ($stage:expr) => {
        match $stage? {
            Next::Go(result) => result,
            Next::End(step) => return Ok(step),
        }
    };
}

/// A capture worth reading: the window as seen, the picture (cut to the configured
/// region), the region's offset in the window, and the picture's fingerprint.
struct Look {
    view: WindowView,
    picture: RgbaImage,
    region: (u32, u32),
    seen: u64,
}

/// The puzzle to play: as read before the first move, its solution, whether it has
/// several, and the grid as it reads now (a resumed puzzle is half played).
struct Chosen {
    puzzle: Grid,
    solution: Grid,
    several: bool,
    now: Grid,
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// One pass: look at the window, and play the puzzle in it if there is a new one.
    pub fn step(&mut self) -> Result<Step, BotError> {
        // The user's input while the bot watches: read it now, so that what is left to
        // see when play starts is recent.
        let user_active = self.input.user_activity()?;
        let look = go!(self.look());
        let (reading, map) = go!(self.read_capture(&look));
        let chosen = go!(self.choose_puzzle(&look, &reading));
        self.act(user_active, &look, map, chosen)
    }

    /// Captures the window, unless there is nothing to see (minimised, off the screen,
    /// locked, unchanged since the last look, or covered where the grid was).
    fn look(&mut self) -> Result<Next<Look>, BotError> {
        let view = self.screen.view()?;
        if view.window.minimized {
            return Ok(Next::End(Step::Wait("the window is minimised".into())));
        }
        if !view.viewable {
            return Ok(Next::End(Step::Wait(crate::screen::NOT_ON_SCREEN.into())));
        }
        if let Some(why) = self.screen.locked()? {
            return Ok(Next::End(Step::Wait(why)));
        }
        let capture = self.screen.capture()?;
        let (picture, region) = self.crop_to_region(capture);
        let seen = fingerprint(&picture, self.grid_area);
        if self.last_seen == Some(seen) {
            let why = format!("{} (nothing changed)", self.last_reason);
            return Ok(Next::End(Step::Wait(why)));
        }
        if let Some(cover) = self.cover_over_known_grid(&view, region) {
            return Ok(Next::End(Step::Wait(cover)));
        }
        Ok(Next::Go(Look {
            view,
            picture,
            region,
            seen,
        }))
    }

    /// Reads the capture: the reading and where its cells are on the screen, unless it
    /// shows no grid, a grid that something covers, or a reading not to be trusted.
    fn read_capture(&mut self, look: &Look) -> Result<Next<(Reading, CellMap)>, BotError> {
        let picture = DynamicImage::ImageRgba8(look.picture.clone());
        let t = std::time::Instant::now();
        // In the middle of a puzzle, a clash is mostly the game's misplaced digits: the
        // glyphs learnt stay unless the reading is refused (`doubtful_reading`).
        let read = if self.playing.is_some() {
            self.reader.read_in_play(&picture)
        } else {
            self.reader.read(&picture, None)
        };
        debug!("read the capture in {} ms", t.elapsed().as_millis());
        let reading = match read {
            Ok(reading) => reading,
            Err(ReadError::Doubtful {
                reason,
                cells,
                reading,
            }) => match self.doubtful_reading(look, &picture, reason, cells, *reading)? {
                Next::Go(reading) => reading,
                Next::End(step) => return Ok(Next::End(step)),
            },
            Err(ReadError::NoGrid) => {
                self.last_seen = Some(look.seen);
                self.last_reason = "no sudoku grid in the window".into();
                return Ok(Next::End(Step::Wait(self.last_reason.clone())));
            }
            Err(ReadError::Engine(e)) => return Err(BotError::Reader(e)),
        };
        let map = CellMap::new(&reading, look.view.window.rect, look.region, &self.config);
        if let Some(cover) = covered(&look.view, &map.grid) {
            return Ok(Next::End(Step::Wait(cover)));
        }
        let (width, height) = look.picture.dimensions();
        self.grid_area = Some(picture_area(&reading, width, height));
        // Fingerprint the grid area from now on, so a clock elsewhere does not wake us.
        self.last_seen = Some(fingerprint(&look.picture, self.grid_area));
        Ok(Next::Go((reading, map)))
    }

    /// A reading the reader doubts: taken all the same when it is the puzzle being
    /// played (digits of the bot's own that went to the wrong cells clash with the
    /// givens; play goes on and types over them), waited out when it is the last
    /// puzzle's solved grid under a banner whose words read as clashing digits or when
    /// something covers the grid, and refused otherwise.
    fn doubtful_reading(
        &mut self,
        look: &Look,
        picture: &DynamicImage,
        reason: String,
        cells: Vec<usize>,
        reading: Reading,
    ) -> Result<Next<Reading>, BotError> {
        let grid = reading.grid;
        if let Some((puzzle, solution, _)) = self.playing {
            if same_puzzle_half_played(&grid, &puzzle, &solution) {
                info!("the grid reads with clashes in cells the bot typed into; going on with the same puzzle");
                return Ok(Next::Go(reading));
            }
        }
        if let Some((puzzle, solution)) = self.finished {
            if still_the_last_puzzle(&grid, &puzzle, &solution).is_some() {
                self.last_seen = Some(look.seen);
                self.last_reason =
                    "the last puzzle's solved grid is partly covered (what covers it reads as clashing digits)"
                        .into();
                return Ok(Next::End(Step::Wait(self.last_reason.clone())));
            }
        }
        let map = CellMap::new(&reading, look.view.window.rect, look.region, &self.config);
        if let Some(cover) = covered(&look.view, &map.grid) {
            return Ok(Next::End(Step::Wait(cover)));
        }
        self.last_seen = Some(look.seen);
        self.last_reason = format!("the grid could not be read: {reason}");
        self.reader.forget(&reading, &cells);
        Err(self.refusal(reason, cells, picture, &reading, look.seen))
    }

    /// The puzzle to play from a reading: nothing when the window shows the last puzzle
    /// still, or a full grid; the interrupted puzzle when this is it, half played; else
    /// the puzzle read, with the solution its verdict gives, once a second reading
    /// confirms every digit.
    fn choose_puzzle(&mut self, look: &Look, reading: &Reading) -> Result<Next<Chosen>, BotError> {
        let now = reading.grid;
        if let Some((old_puzzle, old_solution)) = self.finished {
            if let Some(why) = still_the_last_puzzle(&now, &old_puzzle, &old_solution) {
                self.last_reason = why;
                return Ok(Next::End(Step::Wait(self.last_reason.clone())));
            }
        }
        if now.is_complete() {
            self.last_reason = "the grid in the window is already full".into();
            return Ok(Next::End(Step::Wait(self.last_reason.clone())));
        }
        // A puzzle whose play was interrupted (a pause) goes on from what is seen, with
        // the same puzzle and solution: it is not solved again from the half-filled grid,
        // where a given hidden by the game's popover (left open by the pause) would
        // read as an empty cell. Only the puzzle's empty cells are typed into.
        if let Some((puzzle, solution, several)) = self.playing {
            if same_puzzle_half_played(&now, &puzzle, &solution) {
                info!("going on with the puzzle that was interrupted");
                return Ok(Next::Go(Chosen {
                    puzzle,
                    solution,
                    several,
                    now,
                }));
            }
            self.playing = None;
        }
        let picture = DynamicImage::ImageRgba8(look.picture.clone());
        let (solution, several) = self.solution_to_play(&picture, reading, look.seen)?;
        self.confirm_digits(&picture, reading, look.seen)?;
        Ok(Next::Go(Chosen {
            puzzle: now,
            solution,
            several,
            now,
        }))
    }

    /// The solution the reading's verdict gives, and whether the puzzle has several:
    /// one of several is played only where `[puzzle] several_solutions` says so and
    /// every digit was read with confidence (the second reading must confirm them all
    /// as well). Otherwise the puzzle is refused.
    fn solution_to_play(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
        seen: u64,
    ) -> Result<(Grid, bool), BotError> {
        // One of several solutions is played only from digits read with confidence, or,
        // when Tesseract is unsure of a typeface (via-sudoku's Hershey digits: 0.7),
        // digits that a second, independent reading confirms every one of.
        let play_one = self.config.puzzle.several_solutions == SeveralSolutions::Play
            && (low_confidence_cells(reading).is_empty()
                || matches!(reading.verdict, Verdict::Several(_))
                    && self
                        .reader
                        .confirm(picture, reading)
                        .is_ok_and(|u| u.is_empty()));
        let verdict = if play_one {
            reading.verdict.clone()
        } else {
            reading
                .verdict
                .clone()
                .unique_only(|| low_confidence_cells(reading))
        };
        match verdict {
            Verdict::Unique(solution) => Ok((solution, false)),
            Verdict::Several(solution) => Ok((solution, true)),
            Verdict::Doubtful { reason, mut cells } => {
                self.last_reason = reason.clone();
                if cells.is_empty() {
                    cells = low_confidence_cells(reading);
                }
                let all: Vec<usize> = (0..81).collect();
                self.reader.forget(reading, &all);
                Err(self.refusal(reason, cells, picture, reading, seen))
            }
        }
    }

    /// A second reading, sharing no cache with the first, must agree on every digit.
    fn confirm_digits(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
        seen: u64,
    ) -> Result<(), BotError> {
        let unconfirmed = self.reader.confirm(picture, reading).map_err(|e| match e {
            ReadError::Engine(e) => BotError::Reader(e),
            other => BotError::Reader(other.to_string()),
        })?;
        // The one rule that accepts a reading, as `read`, `overlay` and `eval` apply it.
        let Err(ReadError::Doubtful { reason, cells, .. }) = accepted(reading.clone(), unconfirmed)
        else {
            return Ok(());
        };
        let all: Vec<usize> = (0..81).collect();
        self.reader.forget(reading, &all);
        self.last_reason = reason.clone();
        Err(self.refusal(reason, cells, picture, reading, seen))
    }

    /// The error that refuses a reading, with the picture of its doubtful cells saved.
    fn refusal(
        &self,
        reason: String,
        cells: Vec<usize>,
        picture: &DynamicImage,
        reading: &Reading,
        seen: u64,
    ) -> BotError {
        let picture_path = self.save_debug_picture(picture, Some(reading), &cells, seen);
        BotError::Refused {
            reason,
            cells,
            picture: picture_path,
        }
    }

    /// Plays the chosen puzzle's empty cells and verifies the game took them, or, in a
    /// dry run, prints the moves. Waits instead while the user is at the mouse or
    /// keyboard, or another window holds the focus the bot lost to it.
    fn act(
        &mut self,
        user_active: Option<String>,
        look: &Look,
        map: CellMap,
        chosen: Chosen,
    ) -> Result<Step, BotError> {
        let Chosen {
            puzzle,
            mut solution,
            several,
            now,
        } = chosen;
        self.playing = Some((puzzle, solution, several));
        let mut moves = plan_moves(&now, &solution, &map);
        moves.retain(|m| puzzle.cells()[m.cell] == 0);
        info!("puzzle {} read, {} cells to fill", now, moves.len());
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
                puzzle: now,
                moves: moves.len(),
            }));
        }
        check_configured_points(&self.config, &map, &look.view.window.rect)?;
        if let Some(why) = self.busy_user_or_focus(user_active)? {
            self.last_seen = None;
            return Ok(Step::Wait(why));
        }
        let before: HashSet<u32> = look.view.above.iter().map(|w| w.id).collect();
        if self.playing.is_some_and(|(p, _, _)| p == now) || self.before_play.is_none() {
            self.before_play = Some(DynamicImage::ImageRgba8(look.picture.clone()));
        }
        match self.play(&moves, &puzzle, &look.view, &map)? {
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
        let verified = self.verify(&puzzle, &mut solution, several, &look.view, map, &before);
        if matches!(verified, Ok(Some(_))) {
            self.remember();
        }
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

    /// Why play must wait: the user at the mouse or keyboard (`user_active`, seen
    /// before the capture, or now), or the window that took the keyboard focus from
    /// the bot still holding it.
    fn busy_user_or_focus(
        &mut self,
        user_active: Option<String>,
    ) -> Result<Option<String>, BotError> {
        if let Some(what) = user_active.or(self.input.user_activity()?) {
            return Ok(Some(format!(
                "the user is at the mouse or keyboard ({what}); waiting for a pause"
            )));
        }
        if let Some(thief) = self.focus_thief.clone() {
            if self
                .screen
                .focus_elsewhere()?
                .is_some_and(|e| e.to_string() == thief)
            {
                return Ok(Some(format!(
                    "{thief} has the keyboard focus; waiting for it to let go"
                )));
            }
            self.focus_thief = None;
        }
        Ok(None)
    }
}
