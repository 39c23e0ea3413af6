//! Looks at the grid in the middle of play (the closed loop): what the typed digits
//! show, past a text caret and a popover around the last move.

use std::collections::HashMap;

use super::learn::Arrows;
use super::*;

/// What a look at the grid in the middle of play saw.
pub(super) enum Look {
    /// Every typed cell shows its digit (or nothing yet).
    AsTyped,
    /// These cells show another digit than the one typed (or none); this many typed
    /// cells show their digit.
    Retype(Vec<usize>, usize),
    /// A digit of the puzzle no longer reads the same.
    Changed(String),
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// The digits the window shows now, read with the reader's cache (fast), doubtful
    /// ones included; `None` when no grid is seen.
    pub(super) fn read_grid_now(&mut self) -> Result<Option<[u8; 81]>, BotError> {
        let capture = self.screen.capture()?;
        let picture = DynamicImage::ImageRgba8(self.past_caret(capture).0);
        match self.reader.read_in_play(&picture) {
            Ok(r) => Ok(Some(*r.grid.cells())),
            Err(ReadError::Doubtful { reading, .. }) => Ok(Some(*reading.grid.cells())),
            Err(ReadError::NoGrid) => Ok(None),
            Err(ReadError::Engine(e)) => Err(BotError::Reader(e)),
        }
    }

    /// A capture cropped to the configured region, with the text caret the game may
    /// draw in the cell of the last move painted over.
    /// Also gives where the picture lies in the window. When the grid fills less than
    /// two fifths of the picture (a whole monitor, where no window list says where the game
    /// is), the picture is the grid and one cell around it: faster to read, and free of
    /// the desktop's dithered wallpaper, which reads as a photo.
    pub(super) fn past_caret(&self, capture: RgbaImage) -> (RgbaImage, (u32, u32)) {
        let (picture, region) = self.crop_to_region(capture);
        let (mut picture, (dx, dy)) = match self
            .grid_area
            .and_then(|area| grid_with_margin(&picture, area))
        {
            Some((x0, y0, crop)) => (crop, (x0, y0)),
            None => (picture, (0, 0)),
        };
        if let Some(cell) = &self.focus_box {
            let cell = crate::vision::Rect {
                x: cell.x - dx as f32,
                y: cell.y - dy as f32,
                ..*cell
            };
            if caret::erase_caret(&mut picture, &cell) {
                debug!("painted over a caret in the cell of the last move");
            }
        }
        (picture, (region.0 + dx, region.1 + dy))
    }

    /// Captures and reads the grid to see what the moves `typed` did (the closed loop).
    /// A picture that cannot be read says nothing: play goes on, and verification has
    /// the last word. Moves in `strict` (a trial of shorter pauses) must all show their
    /// digit: the look waits for the game to draw them, then calls any that still do
    /// not show lost.
    pub(super) fn look_at_moves(
        &mut self,
        puzzle: &Grid,
        typed: &[Move],
        typed_at: &HashMap<usize, Instant>,
        since: Option<Instant>,
        strict: &[Move],
    ) -> Result<Look, BotError> {
        let read = match self.settled_look(puzzle, typed, strict)? {
            Ok(read) => read,
            Err(look) => return Ok(look),
        };
        // Empty cells may still be fading in or waiting for a slow game: verification
        // sees to them. A different digit is the game's doing or a misplaced key.
        let lately = self.recent_cells(typed);
        let near_last = |c: usize| lately.iter().any(|&l| near(c, l));
        let wrong: Vec<usize> = typed
            .iter()
            .filter(|m| !near_last(m.cell) && read[m.cell] != 0 && read[m.cell] != m.digit)
            .map(|m| m.cell)
            .collect();
        // Digits typed a while ago that still do not show were lost: a game that
        // ignores input for a moment after each move. A few are left to verification
        // (a slow redraw); more mean the pace is too fast for this game.
        let lost: Vec<usize> = typed
            .iter()
            .filter(|m| {
                !near_last(m.cell)
                    && read[m.cell] == 0
                    && typed_at
                        .get(&m.cell)
                        .is_some_and(|at| self.since(*at) >= Duration::from_millis(300))
            })
            .map(|m| m.cell)
            .collect();
        // On trial, every move must show: one that does not was lost.
        let lost_on_trial: Vec<usize> = strict
            .iter()
            .filter(|m| !near_last(m.cell) && read[m.cell] == 0)
            .map(|m| m.cell)
            .collect();
        // Only what was typed since the last look tells about the pace now.
        let fresh = |cells: &[usize]| {
            cells
                .iter()
                .filter(|c| typed_at.get(c).is_some_and(|at| Some(*at) > since))
                .count()
        };
        self.learn_from_look(fresh(&wrong), fresh(&lost), strict.is_empty());
        let mut wrong = wrong;
        if lost.len() > 2 {
            wrong.extend(&lost);
        }
        for c in lost_on_trial {
            if !wrong.contains(&c) {
                wrong.push(c);
            }
        }
        let shown = typed.iter().filter(|m| read[m.cell] == m.digit).count();
        // Digits typed with a stored model show, two at least besides the last move's
        // (a key that goes to a cursor left on the first cell shows there once): its
        // way of entering them works.
        let shown_before_last = typed
            .iter()
            .filter(|m| !near_last(m.cell) && read[m.cell] == m.digit)
            .count();
        self.model.recall_proven |= self.model.recalled && shown_before_last >= 2;
        if wrong.is_empty() {
            return Ok(Look::AsTyped);
        }
        info!(
            "{} shows a digit other than the one typed (or none); entering it again",
            cell_names(&wrong)
        );
        Ok(Look::Retype(wrong, shown))
    }

    /// The digits read once the game is done drawing: a look where the puzzle's own
    /// digits do not all read (a closing popover, a fade) is taken again, for at most
    /// 300 ms (or twice the game's latency), then means the grid changed; one where
    /// moves on trial (`strict`) do not show yet, for twice the game's latency. No grid seen: nothing to say.
    fn settled_look(
        &mut self,
        puzzle: &Grid,
        typed: &[Move],
        strict: &[Move],
    ) -> Result<Result<[u8; 81], Look>, BotError> {
        let start = self.now();
        let strict_wait = Duration::from_millis((2 * self.model.latency).max(40));
        // A slow game redraws late: its own digits get as long to read again.
        let changed_wait = Duration::from_millis((2 * self.model.latency).max(300));
        loop {
            let Some(read) = self.read_grid_now()? else {
                return Ok(Err(Look::AsTyped));
            };
            let mut changed: Vec<usize> = (0..81)
                .filter(|&i| puzzle.cells()[i] != 0 && read[i] != puzzle.cells()[i])
                .collect();
            // Games that open a popover at a clicked cell (GNOME Sudoku's number
            // chooser) hide the cells around the last move for a moment: a look in
            // the middle of play leaves them to the next look.
            let lately = self.recent_cells(typed);
            changed.retain(|&i| !lately.iter().any(|&l| near(i, l)));
            let unshown = strict
                .iter()
                .filter(|m| read[m.cell] == 0 && !lately.iter().any(|&l| near(m.cell, l)))
                .count();
            if changed.is_empty() && (unshown == 0 || self.since(start) >= strict_wait) {
                debug!("mid-play look took {} ms", self.since(start).as_millis());
                return Ok(Ok(read));
            }
            if !changed.is_empty() && self.since(start) >= changed_wait {
                return Ok(Err(Look::Changed(format!(
                    "the game's digits at {} no longer read as before (something covers or changed the grid); looking again",
                    cell_names(&changed)
                ))));
            }
            debug!(
                "mid-play look: {} of the puzzle's digits and {unshown} digits typed do not read yet",
                changed.len()
            );
            self.pause(if changed.is_empty() { 10 } else { 30 });
        }
    }

    /// The cells of the last moves, where a popover may still hide the grid: the
    /// last one, or the last four on a screen whose captures lag (it may still show
    /// the popover of a move or three before).
    fn recent_cells(&self, typed: &[Move]) -> Vec<usize> {
        let recent = if self.screen.captures_lag() { 4 } else { 1 };
        typed.iter().rev().take(recent).map(|m| m.cell).collect()
    }

    /// What digits in the wrong cell (`wrong_now`) and lost ones (`lost_now`) since the
    /// last look teach: arrow keys that misplace digits are given up, and, outside a
    /// trial of shorter pauses (`no_trial`), more than a few slow the pace.
    fn learn_from_look(&mut self, wrong_now: usize, lost_now: usize, no_trial: bool) {
        // Arrow keys were chosen over clicks that work: a digit in the wrong cell says
        // the game's arrows do not go where the bot thinks (they skip givens, say).
        let by_arrows = self.model.arrows == Arrows::Preferred;
        if wrong_now > 0 && by_arrows {
            self.refuse_arrows(&format!(
                "{} digits typed after arrow keys went to the wrong cell",
                wrong_now
            ));
        }
        // A trial that fails goes back to the pauses before it instead.
        if no_trial
            && (wrong_now > 1 || lost_now > 2)
            && self
                .pace
                .slower_for(wrong_now > 0 && !by_arrows, self.model.latency)
        {
            self.slowed_in_play = true;
            // A stored model keeps its method; its pace is stored again, slower.
            self.model.store_outdated |= self.model.recalled;
            self.suppose(
                super::beliefs::Claim::LosesMoves,
                format!(
                    "{wrong_now} digits in the wrong cell and {lost_now} lost since the last look; {} ms after a click, {} ms after a key for now",
                    self.pace.after_click, self.pace.after_key
                ),
            );
        }
    }
}

/// Cells within two rows and two columns of each other: where a popover opened at one
/// of them may hide the other.
fn near(a: usize, b: usize) -> bool {
    (a / 9).abs_diff(b / 9) <= 2 && (a % 9).abs_diff(b % 9) <= 2
}
