//! One move played in observed steps: each attempt selects the cell (arrow keys, or a
//! click watched for what it shows), types the digit, and learns from where it went
//! (see lessons.rs).

use super::*;
use crate::bot::beliefs::Claim;

/// A digit seen in the clicked cell before any key is looked at again this many
/// milliseconds later, twice: text carets blink on for 500-600 ms (Chromium, Qt, GTK).
const CARET_BLINK: u64 = 350;

/// One move played in observed steps: the move, the puzzle's givens, the grid
/// expected before it, the window as it was when play began and where its cells are,
/// the window's origin on the screen, and when the last digit key went.
pub(super) struct Observing<'a> {
    pub(super) m: Move,
    pub(super) givens: &'a [u8; 81],
    pub(super) expect: &'a [u8; 81],
    pub(super) start: &'a WindowView,
    pub(super) map: &'a CellMap,
    pub(super) origin: (i32, i32),
    pub(super) last_key: Option<Instant>,
}

/// What selecting the move's cell showed: how long a click's selection took to show,
/// and the cell selected before the click.
#[derive(Default)]
pub(super) struct Selection {
    pub(super) shown_after: Option<u64>,
    /// The cells whose look the click changed.
    pub(super) shown_at: Vec<usize>,
    pub(super) before_click: Option<usize>,
}

/// When the digit key went, and whether a number pad was known then.
pub(super) struct KeySent {
    pub(super) at: Instant,
    pub(super) had_pad: bool,
}

/// What a step of an observed move leads to: on with its result, the attempt played
/// again, or the move done.
pub(super) enum Then<T> {
    Go(T),
    Again,
    Done(Observed),
}

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Plays move `m` in observed steps and learns from what it did (module docs).
    /// `selected` is the cell the game's cursor is on, when known; `last_key` when the
    /// last digit key went. Each of up to three attempts selects the cell (arrow keys,
    /// or a click), types the digit, and learns from where it went.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::bot) fn observed_move(
        &mut self,
        m: Move,
        givens: &[u8; 81],
        expect: &[u8; 81],
        selected: &mut Option<usize>,
        left_pointer_at: &mut Option<ScreenPoint>,
        last_key: Option<Instant>,
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Observed, BotError> {
        let mv = Observing {
            m,
            givens,
            expect,
            start,
            map,
            origin: (start.window.rect.x, start.window.rect.y),
            last_key,
        };
        let mut first_try = true;
        let now = self.now();
        self.model.started.get_or_insert(now);
        for attempt in 0..3 {
            // A game that draws its selection late may take the focus late after a
            // click: arrow keys, which need no click, are tried first, and the probe
            // of the click's focus is only needed when they fail.
            let try_arrows = attempt == 0 && self.arrows_worth_a_try(m.cell, *selected);
            let by_arrows = self.model.method == Some(InputMethod::Keys) && selected.is_some();
            let probing =
                attempt == 0 && !try_arrows && !by_arrows && self.model.focus_gap.is_some();
            if try_arrows {
                debug!(
                    "trying arrow keys in place of a click for {}",
                    cell_name(m.cell)
                );
                self.model.arrows = Arrows::OnTrial;
                self.model.method = Some(InputMethod::Keys);
            }
            let method = self.model.method.unwrap_or_default();
            let arrows = method == InputMethod::Keys && selected.is_some();
            let points: Vec<ScreenPoint> = (!arrows).then_some(m.at).into_iter().collect();
            if let Some(why) = self.unsafe_to_act(start, map, &points)? {
                return Ok(Observed::Stop(Played::Paused(why)));
            }
            if let Some(expected) = *left_pointer_at {
                self.check_pointer(expected, m.cell)?;
            }
            self.check_user(m.cell)?;
            let selection = if arrows {
                self.select_by_arrows(&mv, selected)?
            } else {
                self.select_by_click(&mv, selected, left_pointer_at, probing, &mut first_try)?
            };
            let selection = match selection {
                Then::Go(selection) => selection,
                Then::Again => continue,
                Then::Done(observed) => return Ok(observed),
            };
            // A cell that shows another digit is cleared first: a text field keeps
            // its first character when typed over (retyped cells come here while the
            // game is still being learnt, which a busy machine makes common).
            if m.clear {
                if let Some(stop) = self.clear_cell(start, map)? {
                    return Ok(Observed::Stop(stop));
                }
            }
            if probing && self.model.method != Some(InputMethod::Pad) {
                if let Some(observed) = self.probe_focus(&mv, selected)? {
                    return Ok(observed);
                }
            }
            let before = self.cell_looks(map, mv.origin)?;
            if let Some(stop) = self.focus_lost(start, map)? {
                return Ok(Observed::Stop(stop));
            }
            if probing {
                first_try = false;
            }
            let key = KeySent {
                at: self.now(),
                had_pad: self.model.pad.is_some(),
            };
            let effect =
                self.observed_key(m, expect, &before, left_pointer_at, start, map, mv.origin)?;
            if self.model.arrows == Arrows::OnTrial {
                match self.arrow_trial_ends(&mv, &effect, selected)? {
                    Then::Go(()) => {}
                    Then::Again => continue,
                    Then::Done(observed) => return Ok(observed),
                }
            }
            match self.learn_from_key(&mv, effect, &selection, &key, &mut first_try, selected)? {
                Then::Go(()) | Then::Again => {}
                // The palette pad's last click was on the move's cell.
                Then::Done(Observed::Entered) if self.model.pad_first => {
                    *left_pointer_at = Some(m.at);
                    return Ok(Observed::Entered);
                }
                Then::Done(Observed::Entered) if self.model.popover != Popover::Unseen => {
                    if let Some(stop) = self.after_popover_digit(&mv, left_pointer_at)? {
                        return Ok(Observed::Stop(stop));
                    }
                    return Ok(Observed::Entered);
                }
                Then::Done(observed) => return Ok(observed),
            }
        }
        Err(BotError::Unlearnt(format!(
            "the digit for {} did not go into its cell after three tries",
            cell_name(m.cell)
        )))
    }

    /// Moves the game's selection to the move's cell with arrow keys from the cell
    /// `selected` (the game's cursor). On trial, the arrows must be seen to move it;
    /// when they did not, the attempt is played again with a click.
    pub(super) fn select_by_arrows(
        &mut self,
        mv: &Observing,
        selected: &mut Option<usize>,
    ) -> Result<Then<Selection>, BotError> {
        let (m, map) = (mv.m, mv.map);
        let from = selected.unwrap_or(m.cell);
        self.focus_box = map.cell_box(m.cell);
        let looks_before = if self.model.arrows == Arrows::OnTrial {
            Some(self.still_looks(from, map, mv.origin)?)
        } else {
            None
        };
        if let Some(stop) = self.send_arrows(from, m.cell, mv.start, map)? {
            return Ok(Then::Done(Observed::Stop(stop)));
        }
        *selected = Some(m.cell);
        if let Some(before) = looks_before {
            match self.arrows_took(&before, from, m.cell, map, mv.origin)? {
                ArrowsDid::Moved => {}
                ArrowsDid::Stayed => {
                    *selected = None;
                    return Ok(Then::Again);
                }
                ArrowsDid::GridChanged(why) => {
                    return Ok(Then::Done(Observed::Stop(Played::Paused(why))))
                }
            }
        }
        Ok(Then::Go(Selection::default()))
    }

    /// Selects the move's cell with a click, watched (unless `probing`, or the cell is
    /// selected already), after the pause a key needs; learns from the click whether
    /// the game ignores clicks soon after a key, takes a digit from a click alone (a
    /// palette), or shows no selection at all (a keyboard-only game's cursor is looked
    /// for). Then waits for the pace before the key.
    pub(super) fn select_by_click(
        &mut self,
        mv: &Observing,
        selected: &mut Option<usize>,
        left_pointer_at: &mut Option<ScreenPoint>,
        probing: bool,
        first_try: &mut bool,
    ) -> Result<Then<Selection>, BotError> {
        let (m, map) = (mv.m, mv.map);
        let since_key = mv.last_key.map(|t| self.since(t).as_millis() as u64);
        if let Some(wait) = since_key.and_then(|e| self.pace.after_key.checked_sub(e)) {
            self.pause(wait);
        }
        if probing {
            self.select_a_given_first(mv, selected, left_pointer_at)?;
        }
        let before_click = *selected;
        self.focus_box = map.cell_box(m.cell);
        // A click on the cell already selected changes nothing to see.
        let quiet =
            probing || (*selected == Some(m.cell) && self.model.shows_selection == Some(true));
        let clicked = self.observed_click(m, map, mv.origin, quiet)?;
        *left_pointer_at = Some(m.at);
        if clicked.tries > 1 {
            *first_try = false;
            self.learn_click_needs_time_after_key(&clicked, mv.last_key);
        }
        if !self.model.palette_checked {
            self.model.palette_checked = true;
            self.check_palette(mv, &clicked.looks_before)?;
        }
        // A click that showed nothing may have missed a keyboard-only game:
        // one arrow key shows its cursor (two cells swap looks) before a digit
        // key is spent on a cell the game never selected.
        if clicked.shown_after.is_none()
            && self.model.shows_selection == Some(false)
            && self.model.method.is_none()
            && !self.model.cursor_probed
            && !quiet
        {
            self.model.cursor_probed = true;
            if let Some(cursor) = self.cursor_probe(map, mv.origin, mv.start)? {
                info!(
                    "learnt: a click shows nothing and arrow keys move the game's cursor (now at {}); playing with the keyboard only",
                    cell_name(cursor)
                );
                self.model.method = Some(InputMethod::Keys);
                *selected = Some(cursor);
                return Ok(Then::Again);
            }
        }
        if selected.is_none() || self.model.method != Some(InputMethod::Keys) {
            *selected = Some(m.cell);
        }
        // The key waits for the pace, or for the selection to show, whichever
        // is later; in the probe, for the pace alone.
        if let (Some(shown), false) = (clicked.shown_after, probing) {
            self.model.latency = self.model.latency.max(shown.min(LONGEST_WAIT_MS / 2));
            self.pause(self.pace.after_click.saturating_sub(shown));
        } else {
            self.pause(self.pace.after_click);
        }
        Ok(Then::Go(Selection {
            shown_after: clicked.shown_after,
            shown_at: clicked.shown_at,
            before_click,
        }))
    }

    /// The probe of a late focus, before its click: a given selected first. A key that
    /// comes before the focus moves goes to it, and a given takes no digit.
    pub(super) fn select_a_given_first(
        &mut self,
        mv: &Observing,
        selected: &mut Option<usize>,
        left_pointer_at: &mut Option<ScreenPoint>,
    ) -> Result<(), BotError> {
        let Some(g) = nearest_given(mv.givens, mv.expect, mv.m.cell) else {
            return Ok(());
        };
        let at = mv.map.center(g);
        if self.unsafe_to_act(mv.start, mv.map, &[at])?.is_none() {
            self.input.click(at)?;
            *left_pointer_at = Some(at);
            self.last_input = Some(self.now());
            self.pause(self.first_wait());
            *selected = Some(g);
        }
        Ok(())
    }

    /// A click the game took only when sent again, soon after the last key: the
    /// pause after a key grows to what it took.
    pub(super) fn learn_click_needs_time_after_key(
        &mut self,
        clicked: &Clicked,
        last_key: Option<Instant>,
    ) {
        if let Some(t) = last_key {
            let took = clicked.at.duration_since(t).as_millis() as u64;
            self.pace.after_key = self.pace.after_key.max(took.min(self.pace.slowest));
            self.suppose(
                Claim::IgnoresClickSoonAfterKey,
                format!(
                    "a click took {} tries, {took} ms after the key; {} ms after a key for now",
                    clicked.tries, self.pace.after_key
                ),
            );
        }
    }

    /// A click on the empty cell of `m` showed `digit` before any key: a number
    /// palette, unless the method is known. The rest is played with arrow keys.
    pub(super) fn palette_seen(&mut self, m: Move, digit: u8) {
        if self.model.method.is_some() {
            return;
        }
        info!(
            "learnt: a click on an empty cell enters a digit by itself ({digit} at {}); playing with arrow keys from here",
            cell_name(m.cell)
        );
        self.model.method = Some(InputMethod::Keys);
    }

    /// Whether the first click on an empty cell entered a digit by itself (a number
    /// palette): then the rest is played with arrow keys from there.
    /// And whether it opened something over the grid (a popover, a number wheel).
    pub(super) fn check_palette(
        &mut self,
        mv: &Observing,
        looks_before: &[Look; 81],
    ) -> Result<(), BotError> {
        let changed = self.changed_cells(looks_before, mv.map, mv.origin)?;
        if let Some(read) = self.read_grid_now()? {
            if mv.expect[mv.m.cell] == 0 && read[mv.m.cell] != 0 {
                let digit = read[mv.m.cell];
                if self.digit_stays(mv.m.cell, digit)? {
                    self.palette_seen(mv.m, digit);
                } else {
                    info!(
                        "{} read {digit} after the click, then not: no digit the click entered",
                        cell_name(mv.m.cell)
                    );
                }
            }
            self.popover_seen(mv, &read, &changed);
        }
        Ok(())
    }

    /// Whether `digit`, read once in `cell`, reads there again [`CARET_BLINK`] and twice
    /// that later: a digit the game entered stays, where a blinking text caret, or
    /// whatever React Sudoku draws in the clicked empty cell for a moment after about 1
    /// in 10 first clicks (read as a 1; the bot then played it as a palette game and
    /// gave up), is gone in one of the two looks.
    fn digit_stays(&mut self, cell: usize, digit: u8) -> Result<bool, BotError> {
        for _ in 0..2 {
            self.pause(CARET_BLINK);
            if self.read_grid_now()?.is_none_or(|read| read[cell] != digit) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The probe's key, 'after_click' after the click: in the cell, or (the focus still
    /// on the given) nowhere. Either way the focus is on the cell once the look is
    /// over. The move is done when the digit went in; else the pause after a click
    /// grows past the focus's delay, and the digit is typed again.
    pub(super) fn probe_focus(
        &mut self,
        mv: &Observing,
        selected: &mut Option<usize>,
    ) -> Result<Option<Observed>, BotError> {
        let m = mv.m;
        if let Some(stop) = self.focus_lost(mv.start, mv.map)? {
            return Ok(Some(Observed::Stop(stop)));
        }
        self.input.key(Key::Digit(m.digit))?;
        self.last_input = Some(self.now());
        self.pause(self.first_wait());
        let read = self.read_grid_now()?.unwrap_or(*mv.expect);
        let gap = self.model.focus_gap.take().unwrap_or(0);
        if read[m.cell] == m.digit {
            debug!("the focus follows a click in time (the selection is only drawn late)");
            self.model.focus_in_time = true;
            return self.entered(true).map(Some);
        }
        if let Some(w) =
            (0..81).find(|&i| i != m.cell && read[i] == m.digit && mv.expect[i] != m.digit)
        {
            self.put_back(w, mv.expect)?;
        }
        let pause = (gap * 3 / 2 + 10).min(self.pace.slowest);
        self.pace.after_click = self.pace.after_click.max(pause);
        self.suppose(
            Claim::TakesFocusLate,
            format!(
                "a key {gap} ms after a click went to the cell selected before; {} ms after a click for now",
                self.pace.after_click
            ),
        );
        // Typed again by the caller, now that the focus is on the cell.
        *selected = Some(m.cell);
        Ok(None)
    }
}
