//! A click and a digit key, each sent and watched for its effect: the cell selected,
//! the digit in its cell, in another (put back) or nowhere (sent again).

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Clicks the cell of `m` and looks for the click's effect in the grid: on its cell,
    /// or on others (a game that shades the selected cell's whole row and column, as
    /// pygame's "Game Sudoku" does, leaves a cell that lay in the last selection's row
    /// as it was: the click shows where the old column went back to plain).
    /// `quiet`: the click is not looked after (a probe, or a cell already selected).
    pub(super) fn observed_click(
        &mut self,
        m: Move,
        map: &CellMap,
        origin: (i32, i32),
        quiet: bool,
    ) -> Result<Clicked, BotError> {
        let looks_before = self.cell_looks(map, origin)?;
        let mut wait = self.first_wait();
        for tries in 1..=TRIES {
            self.input.click(m.at)?;
            let at = self.now();
            self.last_input = Some(at);
            if quiet {
                return Ok(Clicked {
                    tries,
                    at,
                    shown_after: None,
                    shown_at: Vec::new(),
                    looks_before,
                });
            }
            // A game that shows no selection has nothing to wait for.
            let limit = if self.model.shows_selection == Some(false) {
                0
            } else {
                wait
            };
            while self.since(at) < Duration::from_millis(limit) {
                let now = self.cell_looks(map, origin)?;
                let shown_at: Vec<usize> = (0..81)
                    .filter(|&i| looks_differ(&looks_before[i], &now[i]))
                    .collect();
                if !shown_at.is_empty() {
                    self.model.shows_selection = Some(true);
                    self.model.answered = true;
                    return Ok(Clicked {
                        tries,
                        at,
                        shown_after: Some(self.since(at).as_millis() as u64),
                        shown_at,
                        looks_before,
                    });
                }
                self.pause(5);
            }
            // A game that never showed a selection gets its key now.
            if self.model.shows_selection != Some(true) {
                self.model.shows_selection = Some(false);
                return Ok(Clicked {
                    tries,
                    at,
                    shown_after: None,
                    shown_at: Vec::new(),
                    looks_before,
                });
            }
            debug!("the click on {} changed nothing; again", cell_name(m.cell));
            wait = Self::longer(wait);
        }
        Ok(Clicked {
            tries: TRIES,
            at: self.now(),
            shown_after: None,
            shown_at: Vec::new(),
            looks_before,
        })
    }

    /// Types the digit of `m` and looks where it lands: in its cell, in another, or
    /// nowhere (then it is typed again, up to four times, with longer looks).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn observed_key(
        &mut self,
        m: Move,
        expect: &[u8; 81],
        before: &[Look; 81],
        left_pointer_at: &mut Option<ScreenPoint>,
        start: &WindowView,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<KeyEffect, BotError> {
        let mut wait = self.first_wait();
        // A pad found after the first key showed nothing, on trial for one try, and
        // the method before it.
        let mut pad_on_trial = None;
        // A game that showed no selection for the click may ignore clicks altogether
        // (keyboard only, its cursor elsewhere): two tries, not four, before its
        // cursor is looked for. Busy games show the click's selection.
        let tries_max = if self.model.shows_selection == Some(false) {
            TRIES_UNSELECTED
        } else {
            TRIES
        };
        // When the first try went: a slow game may draw its digit during a later try's
        // look, and how long it took counts from there.
        let mut first_sent = None;
        for tries in 1..=tries_max {
            if let Some(stop) = self.send_digit(m, left_pointer_at, start, map, origin)? {
                return Ok(KeyEffect::Stop(stop));
            }
            let sent = self.last_input.unwrap_or_else(|| self.now());
            let since = *first_sent.get_or_insert(sent);
            let watch = Watch { tries, wait, since };
            if let Some(effect) = self.watch_digit(m, watch, expect, before, map, origin)? {
                return Ok(effect);
            }
            debug!(
                "the key {} for {} showed nothing; again",
                m.digit,
                cell_name(m.cell)
            );
            if let Some(method) = pad_on_trial.take() {
                // Its button did nothing either: back to keys.
                self.model.pad = None;
                self.model.method = method;
            }
            // A game that selected the cell but showed nothing for the key may take
            // digits from a number pad: when the window has one, its button goes next
            // (harmless if the key was only slow: the same digit in the same cell).
            if self.model.pad.is_none()
                && self.model.shows_selection == Some(true)
                && !self.model.pad_searched
            {
                self.model.pad_searched = true;
                if let Some(pad) = self.find_pad(map, origin)? {
                    debug!("the window has a number pad: trying its button {}", m.digit);
                    self.model.pad = Some(pad);
                    pad_on_trial = Some(self.model.method.replace(InputMethod::Pad));
                    continue;
                }
            }
            wait = Self::longer(wait);
        }
        Ok(KeyEffect::Nothing)
    }

    /// Sends the digit of `m`: its key, or the learnt number pad's button. `Some` when
    /// play must stop first.
    fn send_digit(
        &mut self,
        m: Move,
        left_pointer_at: &mut Option<ScreenPoint>,
        start: &WindowView,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Option<Played>, BotError> {
        match self.pad_button(m.digit, origin) {
            Some(button) => {
                if let Some(why) = self.unsafe_to_act(start, map, &[button])? {
                    return Ok(Some(Played::Paused(why)));
                }
                self.input.click(button)?;
                *left_pointer_at = Some(button);
            }
            None => {
                if let Some(stop) = self.focus_lost(start, map)? {
                    return Ok(Some(stop));
                }
                self.input.key(Key::Digit(m.digit))?;
            }
        }
        self.last_input = Some(self.now());
        Ok(None)
    }

    /// Watches where the digit just sent (try `tries`) lands, for `wait` ms, or longer
    /// while its cell is being drawn: in its cell, or in another. `None` when nothing
    /// showed.
    fn watch_digit(
        &mut self,
        m: Move,
        watch: Watch,
        expect: &[u8; 81],
        before: &[Look; 81],
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Option<KeyEffect>, BotError> {
        let Watch { tries, wait, since } = watch;
        let at = self.last_input.unwrap_or_else(|| self.now());
        let mut drawing = false;
        let mut drawn_after = None;
        loop {
            if drawing && self.since(at) >= Duration::from_millis(wait.max(400)) {
                // The cell changed but does not read as the digit: the game took
                // the key; what it shows is for the looks and verification to judge.
                debug!(
                    "{} changed but does not read {} yet",
                    cell_name(m.cell),
                    m.digit
                );
                return Ok(Some(KeyEffect::Entered { tries, drawn_after }));
            }
            if !drawing && self.since(at) >= Duration::from_millis(wait) {
                // Nothing changed: the cell may have shown the digit before the key
                // (the click entered it, as a number palette does).
                if let Some(read) = self.read_grid_now()? {
                    if read[m.cell] == m.digit && expect[m.cell] != m.digit {
                        self.palette_seen(m, m.digit);
                        return Ok(Some(KeyEffect::Entered { tries, drawn_after }));
                    }
                }
                return Ok(None);
            }
            let changed = self.changed_cells(before, map, origin)?;
            self.model.answered |= !changed.is_empty();
            if changed.contains(&m.cell) {
                drawn_after.get_or_insert(self.since(since).as_millis() as u64);
            }
            if !changed.is_empty() {
                if let Some(read) = self.read_grid_now()? {
                    if read[m.cell] == m.digit {
                        return Ok(Some(KeyEffect::Entered { tries, drawn_after }));
                    }
                    let elsewhere = (0..81)
                        .find(|&i| i != m.cell && read[i] == m.digit && expect[i] != m.digit);
                    if let Some(w) = elsewhere {
                        return Ok(Some(KeyEffect::Elsewhere(w)));
                    }
                }
                // Something is being drawn (a fade, a closing popover): wait for it.
                drawing |= changed.contains(&m.cell);
            }
            self.pause(5);
        }
    }

    /// Puts cell `w` back as it was before a digit went there by mistake (the game's
    /// focus is on it now): its own digit typed again when it had one, else erased
    /// (Backspace, and Delete when that did nothing).
    pub(super) fn put_back(&mut self, w: usize, expect: &[u8; 81]) -> Result<(), BotError> {
        let keys: Vec<Key> = if expect[w] != 0 {
            vec![Key::Digit(expect[w])]
        } else {
            vec![Key::Backspace, Key::Delete]
        };
        for key in keys {
            self.input.key(key)?;
            self.last_input = Some(self.now());
            let at = self.now();
            while self.since(at) < Duration::from_millis(300) {
                if let Some(read) = self.read_grid_now()? {
                    if read[w] == expect[w] {
                        debug!("{key:?} put {} back", cell_name(w));
                        return Ok(());
                    }
                }
                self.pause(10);
            }
        }
        warn!("could not put {} back as it was", cell_name(w));
        Ok(())
    }
}

/// A digit key's look: which try it is, how long it waits, and when the first try
/// went.
#[derive(Clone, Copy)]
struct Watch {
    tries: u32,
    wait: u64,
    since: Instant,
}

/// What a click did.
pub(super) struct Clicked {
    /// Clicks sent (more than one: the game ignored the first).
    pub(super) tries: u32,
    /// When the click that took was sent.
    pub(super) at: Instant,
    /// Milliseconds until the cell showed as selected (when it did).
    pub(super) shown_after: Option<u64>,
    /// The cells whose look changed then.
    pub(super) shown_at: Vec<usize>,
    /// Every cell's look before the click.
    pub(super) looks_before: [Look; 81],
}

/// Where a digit key's digit went.
pub(super) enum KeyEffect {
    /// `drawn_after`: milliseconds from the key to the first change in the cell.
    Entered {
        tries: u32,
        drawn_after: Option<u64>,
    },
    Elsewhere(usize),
    Nothing,
    Stop(Played),
}
