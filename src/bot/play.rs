//! Playing: entering moves with every safety check before each move and each key.

use std::collections::HashMap;

use super::cells::order_for_arrows;
use super::learn::{Arrows, Popover};
use super::look::Look;
use super::pace::{Trial, TRIAL_MOVES};
use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Enters `moves`, row by row. Before each move the window must be unchanged, on
    /// the screen and unlocked, with every point the move clicks uncovered; before each
    /// key the game must have the focus; and the user must not have touched mouse or
    /// keyboard (a handful of X11 round trips a move, well under a millisecond).
    ///
    /// The loop is closed: after the first move, the fourth, then every eighth, the
    /// grid is captured and read. A digit the game shows in a cell other than the one
    /// typed there (the game changed it, or it went to another cell) is entered again at
    /// once, and more than one such digit slows the pace; a digit of `puzzle` that no
    /// longer reads the same means something covers or changed the grid, and typing
    /// stops. Cells around the last move are left to the next look (a popover may
    /// hide them).
    ///
    /// The input device checks each input again as it sends it: one that would reach
    /// no program (the game gone from the screen, the focus on no window since the
    /// bot's own checks) is not sent, and play pauses as for the bot's own checks.
    pub(super) fn play(
        &mut self,
        moves: &[Move],
        puzzle: &Grid,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Played, BotError> {
        match self.play_moves(moves, puzzle, start, map) {
            Err(BotError::Input(InputError::Unreachable(why))) => {
                debug!("the input device sent nothing: {why}");
                Ok(Played::Paused(why))
            }
            played => played,
        }
    }

    fn play_moves(
        &mut self,
        moves: &[Move],
        puzzle: &Grid,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Played, BotError> {
        self.wait_for_keys_released()?;
        self.slowed_in_play = false;
        let t = self.now();
        // A screen whose captures lag says nothing about the game's timing: the
        // default model is played (a click, then a key; arrow keys once their trial
        // passed), and the closed loop corrects it.
        let lagging = self.config.input.method.is_none() && self.screen.captures_lag();
        if lagging && !self.model.palette_checked {
            self.model.palette_checked = true;
            info!("not learning the game: captures in this session come a frame or more late; a click selects a cell, a key enters its digit ([input] method changes it)");
        }
        self.allow_arrows_if_seen_harmless(&start.window);
        if !lagging {
            self.recall(&start.window);
        }
        // From here on the pointer is the bot's: where it is now, then where each click
        // leaves it.
        let mut round = Round::new(moves, puzzle, self.input.pointer()?);
        // A trial of shorter pauses cut short by a pause in play is over: the pauses
        // that held are kept (trying again after every pause never ends on a game
        // whose looks pause play).
        if let Trial::Trying { good, .. } = &self.model.trial {
            self.pace = good.clone();
            self.model.trial = Trial::Done;
        }
        while round.index < round.queue.len() {
            let pinned = self
                .config
                .input
                .method
                .or_else(|| lagging.then(|| self.model.method.unwrap_or(InputMethod::Click)));
            // Arrow keys from here on (learnt or pinned): the rest in the order that
            // needs the fewest of them.
            let by_arrows = pinned.or(self.model.method) == Some(InputMethod::Keys)
                && (pinned.is_some() || !self.model.learning());
            if let (false, true, Some(from)) = (round.ordered, by_arrows, round.selected) {
                order_for_arrows(from, &mut round.queue[round.index..]);
                round.ordered = true;
            }
            // A palette pad picked before each cell: the rest digit by digit, one pick
            // each.
            if !round.ordered && pinned.is_none() && self.model.pad_first {
                round.queue[round.index..].sort_by_key(|m| m.digit);
                round.ordered = true;
            }
            let m = round.queue[round.index];
            round.index += 1;
            if self.stopped() {
                return Ok(Played::Stopped);
            }
            if pinned.is_none() && !self.model.learning() && self.model.trial == Trial::NotYet {
                self.try_shorter_pauses(Vec::new());
            }
            match self.look_if_due(&mut round, puzzle)? {
                Goes::On => {}
                Goes::Again => continue,
                Goes::Stop(played) => return Ok(played),
            }
            if lagging
                && self.config.input.try_arrows == Some(true)
                && self.model.arrows == Arrows::Untried
                && self.model.method.is_none()
            {
                match self.arrows_on_a_lagging_screen(&mut round, m, start, map)? {
                    Goes::On => {}
                    Goes::Again => continue,
                    Goes::Stop(played) => return Ok(played),
                }
            }
            if pinned.is_none() && self.model.learning() {
                let observed = self.observed_move(
                    m,
                    puzzle.cells(),
                    &round.expect,
                    &mut round.selected,
                    &mut round.left_pointer_at,
                    round.last_key,
                    start,
                    map,
                )?;
                match observed {
                    Observed::Entered => {
                        round.note_typed(m, self.now());
                        if !self.model.learning() {
                            self.pause(self.pace.after_key);
                        }
                        continue;
                    }
                    Observed::Stop(played) => return Ok(played),
                }
            }
            let method = pinned.or(self.model.method).unwrap_or_default();
            if let Some(stop) = self.play_move(&mut round, m, method, start, map)? {
                return Ok(stop);
            }
        }
        // The last move's own effect on the user checks (its key is not the user's).
        self.check_user(round.queue.last().map_or(0, |m| m.cell))?;
        info!(
            "entered {} digits in {} ms",
            round.queue.len(),
            self.since(t).as_millis()
        );
        Ok(Played::All)
    }

    /// Move `m` played with arrow keys on trial on a screen whose captures lag, from
    /// the game's cursor when it is on another cell: `Again` when the digit went in
    /// (on to the next move), `On` to play the move as usual.
    fn arrows_on_a_lagging_screen(
        &mut self,
        round: &mut Round,
        m: Move,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Goes, BotError> {
        let Some(from) = round.selected.filter(|&s| s != m.cell) else {
            return Ok(Goes::On);
        };
        match self.arrows_despite_lag(m, from, &round.expect, start, map)? {
            None => round.selected = None,
            Some(Observed::Stop(played)) => return Ok(Goes::Stop(played)),
            Some(Observed::Entered) => {
                round.selected = Some(m.cell);
                round.note_typed(m, self.now());
                self.pause(self.pace.after_key);
                return Ok(Goes::Again);
            }
        }
        Ok(Goes::On)
    }

    /// When a look at the grid is due (after the first move, the fourth, then every
    /// eighth, or when a trial of shorter pauses has typed its moves): reads what the
    /// moves typed show, judges the trial, and puts the moves whose digits do not show
    /// back in the queue, next.
    fn look_if_due(&mut self, round: &mut Round, puzzle: &Grid) -> Result<Goes, BotError> {
        let trial_due =
            matches!(&self.model.trial, Trial::Trying { cells, .. } if cells.len() >= TRIAL_MOVES);
        if !((round.typed.len() == round.next_look || trial_due)
            && round.index <= round.queue.len())
        {
            return Ok(Goes::On);
        }
        if round.typed.len() == round.next_look {
            round.next_look = if round.next_look < 8 {
                round.next_look * 4
            } else {
                round.next_look + 8
            };
        }
        let trying: Vec<Move> = match &self.model.trial {
            Trial::Trying { cells, .. } => round
                .typed
                .iter()
                .filter(|t| cells.contains(&t.cell))
                .copied()
                .collect(),
            _ => Vec::new(),
        };
        let look = self.look_at_moves(
            puzzle,
            &round.typed,
            &round.typed_at,
            round.last_look,
            &trying,
        )?;
        round.last_look = Some(self.now());
        // A stored model is contradicted when no digit typed with it shows (of four at
        // least) before any look saw them show: the way it
        // enters digits does not work in this game (any more). Some digits lost or in
        // the wrong cell are the pace's, which the look slowed as in any run (sudoku-1440,
        // Kivy, under load: two of four lost dropped its model, and learning again in the
        // middle of the puzzle typed into the wrong cells for 100 s).
        // Once a look saw its digits show, the stored method is proven for this run:
        // digits astray later (cells typed again after verification, say) are the
        // pace's.
        match &look {
            Look::Retype(cells, 0) if round.typed.len() >= 4 && !self.model.recall_proven => {
                self.forget_recalled(&format!(
                    "none of the digits typed shows ({} did not show theirs)",
                    cell_names(cells)
                ));
            }
            _ => {}
        }
        if !trying.is_empty() || trial_due {
            self.judge_trial(&look, &trying);
        }
        match look {
            Look::AsTyped => Ok(Goes::On),
            Look::Retype(mut cells, _) => {
                // Each cell once in the middle of play: what still does not
                // take is verification's to see.
                cells.retain(|c| round.retyped.insert(*c));
                if cells.is_empty() {
                    return Ok(Goes::On);
                }
                // Re-enter them next, before the grid is full and the game
                // judges it.
                let again: Vec<Move> = round
                    .typed
                    .iter()
                    .filter(|t| cells.contains(&t.cell))
                    .map(|&t| Move { clear: true, ..t })
                    .collect();
                round.typed.retain(|t| !cells.contains(&t.cell));
                let at = round.index - 1;
                round.queue.splice(at..at, again);
                round.index = at;
                Ok(Goes::Again)
            }
            Look::Changed(why) => Ok(Goes::Stop(Played::Paused(why))),
        }
    }

    /// Plays move `m` the way the game takes digits (`method`, learnt or pinned):
    /// the cell clicked, or reached with arrow keys from the game's cursor, then the
    /// digit's key or the number pad's button, each after its safety checks. `Some`
    /// when play must stop instead.
    fn play_move(
        &mut self,
        round: &mut Round,
        m: Move,
        method: InputMethod,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        let delays = self.pace.clone();
        let clicks_cell = !(method == InputMethod::Keys && round.selected.is_some());
        let pad = match method {
            InputMethod::Pad => pad_point(&self.config, &start.window.rect, m.digit)
                .or_else(|| self.pad_button(m.digit, (start.window.rect.x, start.window.rect.y))),
            _ => None,
        };
        let points: Vec<ScreenPoint> = clicks_cell.then_some(m.at).into_iter().chain(pad).collect();
        if let Some(why) = self.unsafe_to_act(start, map, &points)? {
            return Ok(Some(Played::Paused(why)));
        }
        if let Some(expected) = round.left_pointer_at {
            self.check_pointer(expected, m.cell)?;
        }
        self.check_user(m.cell)?;
        // Once the game has taken a key, the focus leaving it means another window
        // took it: stop before even clicking.
        if round.selected.is_some() {
            if let Some(stop) = self.focus_lost(start, map)? {
                return Ok(Some(stop));
            }
        }
        self.focus_box = map.cell_box(m.cell);
        if let (true, Some(button)) = (method == InputMethod::Pad && self.model.pad_first, pad) {
            // No text field in such a game: a thin 1 is a digit, not a caret.
            self.focus_box = None;
            self.pad_then_cell(round, m, button, delays.after_click)?;
        } else if clicks_cell {
            if self.first_recalled_click() {
                let origin = (start.window.rect.x, start.window.rect.y);
                self.recalled_click(m, &round.expect, map, origin)?;
            } else {
                self.input.click(m.at)?;
            }
            round.left_pointer_at = Some(m.at);
            self.pause(delays.after_click);
            // A keyboard-only game played from its stored model, its cursor not known
            // yet: the click only gave the window the focus, and one arrow key shows
            // where the game's cursor is.
            if method == InputMethod::Keys
                && self.model.recalled
                && self.model.shows_selection != Some(true)
            {
                let origin = (start.window.rect.x, start.window.rect.y);
                let Some(cursor) = self.cursor_probe(map, origin, start)? else {
                    self.forget_recalled("no cursor of the game's moved at an arrow key");
                    return Ok(Some(Played::Paused(
                        "the game's cursor could not be found; learning how the game takes digits again".into(),
                    )));
                };
                debug!("the game's cursor is at {}", cell_name(cursor));
                if let Some(stop) = self.send_arrows(cursor, m.cell, start, map)? {
                    return Ok(Some(stop));
                }
            }
        } else if let Some(from) = round.selected {
            if let Some(stop) = self.send_arrows(from, m.cell, start, map)? {
                return Ok(Some(stop));
            }
        }
        if m.clear {
            if let Some(stop) = self.clear_cell(start, map)? {
                return Ok(Some(stop));
            }
        }
        match pad {
            _ if self.model.pad_first && method == InputMethod::Pad => {}
            Some(at) => {
                self.input.click(at)?;
                round.left_pointer_at = Some(at);
            }
            None => {
                if let Some(stop) = self.focus_lost(start, map)? {
                    return Ok(Some(stop));
                }
                self.input.key(Key::Digit(m.digit))?;
            }
        }
        let closed = if self.model.popover == Popover::Opens {
            self.close_unstored_popover(m, &round.expect, start, map, &mut round.left_pointer_at)?
        } else {
            self.close_popover(start, map, &mut round.left_pointer_at)?
        };
        if let Some(stop) = closed {
            return Ok(Some(stop));
        }
        round.selected = Some(m.cell);
        if let Trial::Trying { cells, .. } = &mut self.model.trial {
            cells.push(m.cell);
        }
        round.note_typed(m, self.now());
        self.unfocused = 0;
        self.last_input = round.last_key;
        self.pause(delays.after_key);
        Ok(None)
    }

    /// A move in a game whose number pad is a palette: the pad's button for the digit
    /// (unless that digit is picked already: a second click may unpick it), then the
    /// cell, each followed by `pause`.
    fn pad_then_cell(
        &mut self,
        round: &mut Round,
        m: Move,
        button: ScreenPoint,
        pause: u64,
    ) -> Result<(), BotError> {
        if round.picked != Some(m.digit) {
            self.input.click(button)?;
            round.picked = Some(m.digit);
            self.pause(pause);
        }
        self.input.click(m.at)?;
        round.left_pointer_at = Some(m.at);
        self.pause(pause);
        Ok(())
    }

    /// Clears the selected cell before a digit is typed over another: Backspace, then
    /// Delete (a text field's caret may be before or after its character), each after
    /// the focus check. `Some` when play must stop instead.
    pub(super) fn clear_cell(
        &mut self,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        self.send_keys([Key::Backspace, Key::Delete], start, map)
    }

    /// Sends the arrow keys from cell `from` to cell `to`, each after the focus check
    /// and followed by `delays.after_arrow`; `Some` when play must stop instead.
    pub(super) fn send_arrows(
        &mut self,
        from: usize,
        to: usize,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        self.send_keys(arrow_path(from, to), start, map)
    }

    /// Sends `keys`, each after the focus check and followed by `delays.after_arrow`;
    /// `Some` when play must stop instead.
    pub(super) fn send_keys(
        &mut self,
        keys: impl IntoIterator<Item = Key>,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Played>, BotError> {
        for key in keys {
            if let Some(stop) = self.focus_lost(start, map)? {
                return Ok(Some(stop));
            }
            self.input.key(key)?;
            self.last_input = Some(self.now());
            self.pause(self.pace.after_arrow);
        }
        Ok(None)
    }
}

/// A round of play's progress: the moves queued (`index`: the next) and typed, what
/// the grid should show, where the pointer and the game's cursor are, and when the
/// grid was last looked at and is next.
struct Round {
    queue: Vec<Move>,
    index: usize,
    /// Whether the queue was put in the order that needs the fewest arrow keys.
    ordered: bool,
    expect: [u8; 81],
    typed: Vec<Move>,
    typed_at: HashMap<usize, Instant>,
    /// Cells typed again after a look: each once in the middle of play.
    retyped: HashSet<usize>,
    last_key: Option<Instant>,
    left_pointer_at: Option<ScreenPoint>,
    selected: Option<usize>,
    last_look: Option<Instant>,
    /// How many moves typed make the next look due.
    next_look: usize,
    /// The digit picked on a palette pad.
    picked: Option<u8>,
}

impl Round {
    fn new(moves: &[Move], puzzle: &Grid, pointer: ScreenPoint) -> Round {
        Round {
            queue: moves.to_vec(),
            index: 0,
            ordered: false,
            expect: *puzzle.cells(),
            typed: Vec::new(),
            typed_at: HashMap::new(),
            retyped: HashSet::new(),
            last_key: None,
            left_pointer_at: Some(pointer),
            selected: None,
            last_look: None,
            next_look: 1,
            picked: None,
        }
    }

    /// Notes move `m` as typed at `now`.
    fn note_typed(&mut self, m: Move, now: Instant) {
        self.typed.push(m);
        self.expect[m.cell] = m.digit;
        self.typed_at.insert(m.cell, now);
        self.last_key = Some(now);
    }
}

/// What a look in the middle of play means for the round.
enum Goes {
    On,
    /// Moves were put back in the queue: play from there.
    Again,
    Stop(Played),
}
