//! What a digit key's effect teaches: arrow keys kept or given up, the game's timing,
//! a focus that comes late, a cursor that clicks do not move, a number pad.

use super::*;
use crate::bot::beliefs::Claim;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// How arrow keys on trial fared, from where the digit typed after them went:
    /// in its cell at the first key, they are preferred from now on (and the move is
    /// judged as any other, as is a stop); else they are given up, and the move is
    /// done (the digit went in late) or played again with a click.
    pub(super) fn arrow_trial_ends(
        &mut self,
        mv: &Observing,
        effect: &KeyEffect,
        selected: &mut Option<usize>,
    ) -> Result<Then<()>, BotError> {
        match *effect {
            // Play stops: the trial ends undecided.
            KeyEffect::Stop(_) => Ok(Then::Go(())),
            KeyEffect::Entered { tries: 1, .. } => {
                self.model.arrows = Arrows::Preferred;
                info!("learnt: arrow keys move the selection too; playing with arrow keys, no click a move");
                Ok(Then::Go(()))
            }
            KeyEffect::Entered { .. } => {
                self.refuse_arrows("the game ignored the digit key that came after arrow keys");
                self.entered(false).map(Then::Done)
            }
            KeyEffect::Elsewhere(w) => {
                self.put_back(w, mv.expect)?;
                self.refuse_arrows(&format!(
                    "after arrow keys the digit for {} went to {}",
                    cell_name(mv.m.cell),
                    cell_name(w)
                ));
                *selected = Some(w);
                Ok(Then::Again)
            }
            KeyEffect::Nothing => {
                self.refuse_arrows("after arrow keys the digit key showed nothing");
                *selected = None;
                Ok(Then::Again)
            }
        }
    }

    /// Learns from where the digit key's digit went: the move is done when it went in
    /// (after the pace learnt from it); a digit in another cell is put back, and the
    /// game found to take the focus late or to ignore clicks; a key that did nothing
    /// leads to the game's number pad or its own cursor, else to giving up.
    pub(super) fn learn_from_key(
        &mut self,
        mv: &Observing,
        effect: KeyEffect,
        selection: &Selection,
        key: &KeySent,
        first_try: &mut bool,
        selected: &mut Option<usize>,
    ) -> Result<Then<()>, BotError> {
        match effect {
            KeyEffect::Entered { tries, drawn_after }
                if !key.had_pad && self.model.pad.is_some() =>
            {
                self.learn_pad_entered(tries, drawn_after).map(Then::Done)
            }
            KeyEffect::Entered { tries, drawn_after } => {
                debug!(
                    "observed {}: selection shown after {:?} ms, digit drawn after {:?} ms, {tries} key tries",
                    cell_name(mv.m.cell),
                    selection.shown_after,
                    drawn_after
                );
                if !self.learn_from_entered(tries, drawn_after, selection, key) {
                    *first_try = false;
                }
                self.entered(*first_try).map(Then::Done)
            }
            KeyEffect::Stop(p) => Ok(Then::Done(Observed::Stop(p))),
            KeyEffect::Elsewhere(w) => {
                *first_try = false;
                self.model.confirmed = 0;
                self.put_back(w, mv.expect)?;
                self.learn_from_misplaced_digit(mv.m, w, selection);
                *selected = Some(w);
                Ok(Then::Again)
            }
            KeyEffect::Nothing => {
                *first_try = false;
                self.model.confirmed = 0;
                self.learn_from_silent_key(mv, selected)
            }
        }
    }

    /// The digit key showed nothing and the pad's button entered it: the game is
    /// played with its pad, and this move counts as one that went as expected.
    pub(super) fn learn_pad_entered(
        &mut self,
        tries: u32,
        drawn_after: Option<u64>,
    ) -> Result<Observed, BotError> {
        let [(x, y), ..] = self.model.pad.unwrap_or_default();
        info!(
            "learnt: a digit key showed nothing and its number pad enters digits (button 1 at {x},{y} in the window)"
        );
        debug!("{tries} tries");
        self.model.method = Some(InputMethod::Pad);
        if let Some(d) = drawn_after {
            self.model.latency = self.model.latency.max(d);
        }
        self.entered(true)
    }

    /// Learns the game's timing from a digit that went in: how long it took to show,
    /// a selection drawn late (the focus may follow the click late: the next move
    /// probes it), a key the game took only when sent again. False when the move did
    /// not go as expected at the pace in use.
    pub(super) fn learn_from_entered(
        &mut self,
        tries: u32,
        drawn_after: Option<u64>,
        selection: &Selection,
        key: &KeySent,
    ) -> bool {
        let mut as_expected = true;
        if let Some(d) = drawn_after {
            self.model.latency = self.model.latency.max(d);
        }
        // A selection drawn clearly later than the digit is drawn (more than two frames
        // of a 60 Hz screen): the focus may follow the click late. The next move tries
        // it without risk.
        if let (Some(shown), Some(drawn)) = (selection.shown_after, drawn_after) {
            let gap = shown.saturating_sub(drawn);
            if gap > 35
                && gap + 10 > self.pace.after_click
                && !self.model.focus_in_time
                && self.model.focus_gap.is_none()
            {
                self.model.focus_gap = Some(gap);
                as_expected = false;
            }
        }
        if tries > 1 {
            as_expected = false;
            let took = self.since(key.at).as_millis() as u64;
            self.pace.after_click = self.pace.after_click.max(took.min(self.pace.slowest));
            self.suppose(
                Claim::IgnoresKeySoonAfterClick,
                format!(
                    "a digit key took {tries} tries, {took} ms after the click; {} ms after a click for now",
                    self.pace.after_click
                ),
            );
        }
        as_expected
    }

    /// A digit for `m` that went to cell `w`: when the click had visibly selected the
    /// move's cell (or `w` was the cell selected before it), the game takes the focus
    /// late, and play slows; else clicks do not move the game's cursor, and play goes
    /// on with arrow keys from `w`. A click that changed the look of `w` and not of
    /// the move's cell showed the game's cursor (a terminal's cursor filling as its
    /// window takes the focus), not a selection.
    pub(super) fn learn_from_misplaced_digit(&mut self, m: Move, w: usize, selection: &Selection) {
        let cursor_shown = selection.shown_at.contains(&w) && !selection.shown_at.contains(&m.cell);
        let late = !cursor_shown
            && (selection.before_click == Some(w) || self.model.shows_selection == Some(true));
        if late && self.model.method != Some(InputMethod::Keys) {
            // The key was taken, too soon after the click: the click's pause grows.
            self.pace.slower_for(true, self.model.latency);
            self.suppose(
                Claim::TakesFocusLate,
                format!(
                    "the digit for {} went to {}; {} ms after a click for now",
                    cell_name(m.cell),
                    cell_name(w),
                    self.pace.after_click
                ),
            );
            info!(
                "learnt: the game takes the focus late (the digit for {} went to {}); {} ms after a click from now on",
                cell_name(m.cell),
                cell_name(w),
                self.pace.after_click
            );
        } else {
            info!(
                "learnt: a click does not move the game's cursor (the digit for {} went to {}); playing with arrow keys from there",
                cell_name(m.cell),
                cell_name(w)
            );
            self.model.method = Some(InputMethod::Keys);
        }
    }

    /// A digit key that changed nothing anywhere: the game's number pad, when a click
    /// selects cells, or, when it does not, the pad as a palette picked before the
    /// cell is clicked (the move is then done); else its own cursor (a keyboard-only
    /// game); with none of them, the bot cannot learn how the game takes digits.
    pub(super) fn learn_from_silent_key(
        &mut self,
        mv: &Observing,
        selected: &mut Option<usize>,
    ) -> Result<Then<()>, BotError> {
        let mut pad = None;
        if !self.model.pad_searched {
            self.model.pad_searched = true;
            pad = self.find_pad(mv.map, mv.origin)?;
            if let (Some(pad), Some(true)) = (pad, self.model.shows_selection) {
                info!(
                    "learnt: the game takes no digit keys; its number pad enters digits (button 1 at {},{} in the window)",
                    pad[0].0, pad[0].1
                );
                self.model.pad = Some(pad);
                self.model.method = Some(InputMethod::Pad);
                return Ok(Then::Again);
            }
        }
        // A pad whose button after the cell did nothing (or a game that shows no
        // selection) may pick the digit for the cell clicked next.
        if !self.model.pad_first_tried {
            self.model.pad_first_tried = true;
            if pad.is_none() {
                pad = self.find_pad(mv.map, mv.origin)?;
            }
            if let Some(pad) = pad {
                if let Some(observed) = self.pad_picked_first(mv, pad)? {
                    return Ok(Then::Done(observed));
                }
            }
        }
        match self.find_cursor(mv.map, mv.origin, mv.start)? {
            Some(cursor) => {
                info!(
                    "learnt: the game is played with the keyboard only; its cursor is at {}; playing with arrow keys",
                    cell_name(cursor)
                );
                self.model.method = Some(InputMethod::Keys);
                *selected = Some(cursor);
                Ok(Then::Again)
            }
            None => Err(BotError::Unlearnt(format!(
                "neither a click on {} nor the key {} changed anything, and no cursor of the game's could be found; set [input] method in config.toml",
                cell_name(mv.m.cell),
                mv.m.digit
            ))),
        }
    }
}
