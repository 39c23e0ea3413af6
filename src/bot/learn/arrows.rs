//! Arrow keys in place of clicks: whether they are worth a try, the trial itself (the
//! selection must move to the cell and the digit land there), on a screen that lags
//! too, and giving them up.

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Whether the next move is worth playing with arrow keys on trial: `[input]
    /// try_arrows` allows it (an arrow key may send a game back to its menu, and a
    /// click that works is not given up for keys never seen harmless), the game is
    /// clicked by default, shows the cell a click selects, and the last move (to
    /// `selected`, another cell than `cell`) went in as expected, or went in with its
    /// selection drawn late (arrows then spare the probe of a late focus).
    pub(super) fn arrows_worth_a_try(&self, cell: usize, selected: Option<usize>) -> bool {
        self.config.input.try_arrows == Some(true)
            && self.model.arrows == Arrows::Untried
            && self.model.method.is_none()
            && self.model.shows_selection == Some(true)
            && (self.model.confirmed >= 1 || self.model.focus_gap.is_some())
            && selected.is_some_and(|s| s != cell)
    }

    /// Goes back to clicking cells, for `why` (said with -v).
    pub(in crate::bot) fn refuse_arrows(&mut self, why: &str) {
        info!("learnt: {why}; clicking cells");
        self.model.arrows = Arrows::Refused;
        self.model.method = None;
    }

    /// Move `m` played with arrow keys from cell `from` on a screen whose captures lag
    /// (a compositor's stream), where the game is not learnt and a click selects, a key
    /// enters: arrow keys are worth a try all the same, as the selection is drawn and
    /// read like a digit, only later. `None` when the arrows did not move the selection
    /// (nothing typed: the move is to be clicked), else how the move ended; a digit that
    /// went elsewhere is put back and the move is to be clicked.
    pub(in crate::bot) fn arrows_despite_lag(
        &mut self,
        m: Move,
        from: usize,
        expect: &[u8; 81],
        start: &WindowView,
        map: &CellMap,
    ) -> Result<Option<Observed>, BotError> {
        let origin = (start.window.rect.x, start.window.rect.y);
        if let Some(why) = self.unsafe_to_act(start, map, &[])? {
            return Ok(Some(Observed::Stop(Played::Paused(why))));
        }
        self.check_user(m.cell)?;
        self.model.arrows = Arrows::OnTrial;
        let before = self.still_looks(from, map, origin)?;
        if let Some(stop) = self.send_arrows(from, m.cell, start, map)? {
            return Ok(Some(Observed::Stop(stop)));
        }
        match self.arrows_took(&before, from, m.cell, map, origin)? {
            ArrowsDid::Moved => {}
            ArrowsDid::Stayed => return Ok(None),
            ArrowsDid::GridChanged(why) => return Ok(Some(Observed::Stop(Played::Paused(why)))),
        }
        let wait = self.first_wait().max(ARROW_LOOK_MS);
        if let Some(stop) = self.focus_lost(start, map)? {
            return Ok(Some(Observed::Stop(stop)));
        }
        self.focus_box = map.cell_box(m.cell);
        self.input.key(Key::Digit(m.digit))?;
        let at = self.now();
        self.last_input = Some(at);
        while self.since(at) < Duration::from_millis(wait) {
            let Some(read) = self.read_grid_now()? else {
                break;
            };
            if read[m.cell] == m.digit {
                self.model.arrows = Arrows::Preferred;
                self.model.method = Some(InputMethod::Keys);
                info!("learnt: arrow keys move the selection too; playing with arrow keys, no click a move");
                return Ok(Some(Observed::Entered));
            }
            let elsewhere =
                (0..81).find(|&i| i != m.cell && read[i] == m.digit && expect[i] != m.digit);
            if let Some(w) = elsewhere {
                self.put_back(w, expect)?;
                self.refuse_arrows(&format!(
                    "after arrow keys the digit for {} went to {}",
                    cell_name(m.cell),
                    cell_name(w)
                ));
                return Ok(None);
            }
            self.pause(10);
        }
        // Not seen yet: typed all the same (typing it again could clear it in a game
        // that toggles); the looks and verification see to it.
        self.refuse_arrows(&format!(
            "the digit typed after arrow keys did not show in {} within {wait} ms",
            cell_name(m.cell)
        ));
        Ok(Some(Observed::Entered))
    }

    /// The cells' looks once two looks 10 ms apart agree (at most 200 ms): a popover
    /// still closing after the last digit (GNOME Sudoku's number chooser) would take
    /// the arrow keys on trial for its own buttons. Cell `typed`, where the last digit
    /// may still be fading in, is left out.
    pub(super) fn still_looks(
        &mut self,
        typed: usize,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<[Look; 81], BotError> {
        let at = self.now();
        let mut last = self.cell_looks(map, origin)?;
        while self.since(at) < Duration::from_millis(200) {
            self.pause(10);
            let now = self.cell_looks(map, origin)?;
            if (0..81).all(|i| i == typed || !looks_differ(&last[i], &now[i])) {
                break;
            }
            last = now;
        }
        Ok(last)
    }

    /// Whether arrow keys on trial, sent from cell `from` to cell `to`, moved the
    /// game's selection there: both cells take on a new look (`before`: the looks
    /// before the keys) within `ARROW_LOOK_MS` (or the first look's wait). Most of the
    /// grid changing is no selection: the page scrolled (a page that leaves arrow keys
    /// to the browser), and the cells are no longer where the bot would click. Arrows
    /// are given up unless the selection moved.
    pub(super) fn arrows_took(
        &mut self,
        before: &[Look; 81],
        from: usize,
        to: usize,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<ArrowsDid, BotError> {
        let wait = self.first_wait().max(ARROW_LOOK_MS);
        let at = self.now();
        while self.since(at) < Duration::from_millis(wait) {
            let changed = self.changed_cells(before, map, origin)?;
            if changed.len() > 40 {
                let why = format!(
                    "arrow keys changed {} cells of the grid (the page scrolled?); looking again",
                    changed.len()
                );
                self.refuse_arrows(&why);
                return Ok(ArrowsDid::GridChanged(why));
            }
            if changed.contains(&from) && changed.contains(&to) {
                return Ok(ArrowsDid::Moved);
            }
            self.pause(5);
        }
        self.refuse_arrows(&format!(
            "arrow keys did not move the selection from {} to {}",
            cell_name(from),
            cell_name(to)
        ));
        Ok(ArrowsDid::Stayed)
    }

    /// The cells that look different now from `before`.
    pub(super) fn changed_cells(
        &mut self,
        before: &[Look; 81],
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Vec<usize>, BotError> {
        let now = self.cell_looks(map, origin)?;
        Ok((0..81)
            .filter(|&i| looks_differ(&before[i], &now[i]))
            .collect())
    }
}

/// What arrow keys on trial did to the game's selection.
pub(super) enum ArrowsDid {
    Moved,
    Stayed,
    /// Most of the grid changed: why, to wait and look again.
    GridChanged(String),
}
