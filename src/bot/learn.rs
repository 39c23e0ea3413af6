//! The game model: how this game takes digits and how fast, learnt from what its first
//! moves do on the screen.
//!
//! Until two moves in a row have gone as expected at the pace in use, every move is
//! played in observed steps (captures after the click and after the key):
//! - a click whose cell takes on a new look has selected it; a game that showed that
//!   before and shows nothing now ignored the click (it is busy): the click is sent
//!   again later, and the pause after a key grows to what it took;
//! - a click that puts a digit in an empty cell by itself is a number palette: the
//!   rest is played with arrow keys from that cell;
//! - a key whose digit does not show is sent again later (a game busy after each move),
//!   and the pause after a click grows to what it took; a digit that is still being
//!   drawn (a fade) is waited for, not typed again;
//! - a digit that lands in another cell is erased there (Backspace, else Delete). When
//!   the click had visibly selected the cell, the game takes the focus late: slower.
//!   When it had not, clicks do not move the game's cursor: play goes on with arrow
//!   keys from where the digit landed;
//! - a key that changes nothing anywhere, after a click that changed nothing: a
//!   keyboard-only game whose cursor is on a given. One arrow key shows where the
//!   cursor is (the two cells whose look it swaps), and play goes on with arrows.

use std::collections::HashMap;

use super::*;

/// Moves in a row that must go as expected before the bot stops looking after each.
const CONFIRM_MOVES: u32 = 2;
/// How long the first look after an input waits for its effect (long enough for a game
/// that draws a few frames late on a loaded machine); each new try doubles it.
const FIRST_WAIT_MS: u64 = 120;
/// Tries of the same click or key before the game is called deaf to it.
const TRIES: u32 = 4;
/// How long arrow keys on trial get to show the selection moved (and, on a lagging
/// screen, the digit typed after them): a success shows sooner and ends the look, a
/// machine that stalls for a moment should not cost the game its cheaper input.
const ARROW_LOOK_MS: u64 = 300;
/// How long each arrow key gets to show the game's cursor moving, when digit keys
/// showed nothing.
const CURSOR_LOOK_MS: u64 = 300;
/// Tries of a digit key after a click that showed no selection.
const TRIES_UNSELECTED: u32 = 2;
/// Grey levels a block of a cell must change by for the cell to look different.
const LOOK_CHANGE: i32 = 12;

/// What the bot knows of the game (kept for the whole watch).
#[derive(Debug, Clone, Default)]
pub(super) struct Model {
    /// How digits go in, once learnt (else what the config says, else click + key).
    pub method: Option<InputMethod>,
    /// Whether a click visibly selects a cell in this game.
    pub shows_selection: Option<bool>,
    /// Moves in a row that went as expected at the current pace.
    pub confirmed: u32,
    /// Whether the palette look (does a click alone enter a digit?) was taken.
    pub palette_checked: bool,
    /// When the first observed move began.
    pub started: Option<Instant>,
    /// The number pad's buttons 1 to 9 found in the window (window pixels), once a
    /// game that takes no keys showed it is the way digits go in.
    pub pad: Option<[(i32, i32); 9]>,
    /// Whether the window was searched for a number pad.
    pub pad_searched: bool,
    /// The longest the screen took to show the game's answer to an input (ms): how
    /// long a look waits before it calls an input lost.
    pub latency: u64,
    /// How much later than a digit after its key the selection showed after a click
    /// (ms), when clearly later: to be tried with a harmless probe on the next move.
    pub focus_gap: Option<u64>,
    /// Whether a probe showed that keys right after a click reach the clicked cell
    /// although its selection is drawn late.
    pub focus_in_time: bool,
    /// Whether the game's own cursor was looked for right after a click that showed
    /// no selection (a keyboard-only game).
    pub cursor_probed: bool,
    /// The search for shorter pauses, once the game is learnt.
    pub trial: pace::Trial,
    /// Whether arrow keys were tried in place of clicks, and how that went.
    pub arrows: Arrows,
}

/// Arrow keys in place of clicks. A game that shows its selection and takes digit keys
/// may move that selection with arrow keys too: a few keys, a millisecond each and all
/// in one queue, cost less than a click and the pause a click needs, and open no
/// popover over the grid. The first move after a click has gone in is played with
/// arrows instead, and watched: the selection must move to the cell and the digit land
/// there at the first key. Otherwise clicks it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Arrows {
    #[default]
    Untried,
    OnTrial,
    /// The game is played with arrow keys although clicks work too.
    Preferred,
    /// Tried and found wanting: clicks.
    Refused,
}

impl Model {
    /// Whether moves are still played in observed steps.
    pub fn learning(&self) -> bool {
        self.confirmed < CONFIRM_MOVES
    }
}

/// How an observed move ended.
pub(super) enum Observed {
    /// The digit shows in its cell.
    Entered,
    /// Play must stop (a safety check said so).
    Stop(Played),
}

/// A cell's look: the mean grey of 6x6 blocks of its middle 70%.
type Look = [u8; 36];

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Plays move `m` in observed steps and learns from what it did (module docs).
    /// `selected` is the cell the game's cursor is on, when known; `last_key` when the
    /// last digit key went.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn observed_move(
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
        let origin = (start.window.rect.x, start.window.rect.y);
        let mut first_try = true;
        self.model.started.get_or_insert_with(Instant::now);
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
            let mut shown_after = None;
            let mut before_click = None;
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
            if arrows {
                let from = selected.unwrap_or(m.cell);
                self.focus_box = map.cell_box(m.cell);
                let on_trial = self.model.arrows == Arrows::OnTrial;
                let looks_before = if on_trial {
                    Some(self.still_looks(from, map, origin)?)
                } else {
                    None
                };
                if let Some(stop) = self.send_arrows(from, m.cell, start, map)? {
                    return Ok(Observed::Stop(stop));
                }
                *selected = Some(m.cell);
                if let Some(before) = looks_before {
                    match self.arrows_took(&before, from, m.cell, map, origin)? {
                        Selection::Moved => {}
                        Selection::Stayed => {
                            *selected = None;
                            continue;
                        }
                        Selection::GridChanged(why) => {
                            return Ok(Observed::Stop(Played::Paused(why)))
                        }
                    }
                }
            } else {
                let since_key = last_key.map(|t| t.elapsed().as_millis() as u64);
                if let Some(wait) = since_key.and_then(|e| self.pace.after_key.checked_sub(e)) {
                    self.pause(wait);
                }
                if probing {
                    // A given selected first: a key that comes before the focus moves
                    // goes to it, and a given takes no digit.
                    if let Some(g) = nearest_given(givens, expect, m.cell) {
                        let at = map.center(g);
                        if self.unsafe_to_act(start, map, &[at])?.is_none() {
                            self.input.click(at)?;
                            *left_pointer_at = Some(at);
                            self.last_input = Some(Instant::now());
                            self.pause(self.first_wait());
                            *selected = Some(g);
                        }
                    }
                }
                before_click = *selected;
                self.focus_box = map.cell_box(m.cell);
                // A click on the cell already selected changes nothing to see.
                let quiet = probing
                    || (*selected == Some(m.cell) && self.model.shows_selection == Some(true));
                let clicked = self.observed_click(m, map, origin, quiet)?;
                shown_after = clicked.shown_after;
                *left_pointer_at = Some(m.at);
                if clicked.tries > 1 {
                    first_try = false;
                    if let Some(t) = last_key {
                        let took = clicked.at.duration_since(t).as_millis() as u64;
                        self.pace.after_key = self.pace.after_key.max(took.min(self.pace.slowest));
                        info!(
                            "learnt: the game ignores a click that comes soon after a key; {} ms after a key from now on",
                            self.pace.after_key
                        );
                    }
                }
                if !self.model.palette_checked {
                    self.model.palette_checked = true;
                    if let Some(read) = self.read_grid_now()? {
                        if expect[m.cell] == 0 && read[m.cell] != 0 {
                            info!(
                                "learnt: a click on an empty cell enters a digit by itself ({} at {}); playing with arrow keys from here",
                                read[m.cell],
                                cell_name(m.cell)
                            );
                            self.model.method = Some(InputMethod::Keys);
                        }
                    }
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
                    if let Some(cursor) = self.cursor_probe(map, origin, start)? {
                        info!(
                            "learnt: a click shows nothing and arrow keys move the game's cursor (now at {}); playing with the keyboard only",
                            cell_name(cursor)
                        );
                        self.model.method = Some(InputMethod::Keys);
                        *selected = Some(cursor);
                        continue;
                    }
                }
                if selected.is_none() || self.model.method != Some(InputMethod::Keys) {
                    *selected = Some(m.cell);
                }
                // The key waits for the pace, or for the selection to show, whichever
                // is later; in the probe, for the pace alone.
                if let (Some(shown), false) = (clicked.shown_after, probing) {
                    self.model.latency = self.model.latency.max(shown.min(FIRST_WAIT_MS));
                    self.pause(self.pace.after_click.saturating_sub(shown));
                } else {
                    self.pause(self.pace.after_click);
                }
            }
            if probing && self.model.method != Some(InputMethod::Pad) {
                // The probe's key, 'after_click' after the click: in the cell, or (the
                // focus still on the given) nowhere. Either way the focus is on the cell
                // once the look is over.
                if let Some(stop) = self.focus_lost(start, map)? {
                    return Ok(Observed::Stop(stop));
                }
                self.input.key(Key::Digit(m.digit))?;
                self.last_input = Some(Instant::now());
                self.pause(self.first_wait());
                let read = self.read_grid_now()?.unwrap_or(*expect);
                let gap = self.model.focus_gap.take().unwrap_or(0);
                if read[m.cell] == m.digit {
                    debug!("the focus follows a click in time (the selection is only drawn late)");
                    self.model.focus_in_time = true;
                    return self.entered(true);
                }
                if let Some(w) =
                    (0..81).find(|&i| i != m.cell && read[i] == m.digit && expect[i] != m.digit)
                {
                    self.put_back(w, expect)?;
                }
                let pause = (gap * 3 / 2 + 10).min(self.pace.slowest);
                self.pace.after_click = self.pace.after_click.max(pause);
                info!(
                    "learnt: the game takes the focus {gap} ms after a click (a key sooner went to the cell selected before); {} ms after a click from now on",
                    self.pace.after_click
                );
                // Typed again below, now that the focus is on the cell.
                *selected = Some(m.cell);
            }
            let before = self.cell_looks(map, origin)?;
            if let Some(stop) = self.focus_lost(start, map)? {
                return Ok(Observed::Stop(stop));
            }
            if probing {
                first_try = false;
            }
            let key_sent = Instant::now();
            let had_pad = self.model.pad.is_some();
            let effect =
                self.observed_key(m, expect, &before, left_pointer_at, start, map, origin)?;
            if self.model.arrows == Arrows::OnTrial {
                match effect {
                    KeyEffect::Entered { tries: 1, .. } => {
                        self.model.arrows = Arrows::Preferred;
                        info!("learnt: arrow keys move the selection too; playing with arrow keys, no click a move");
                    }
                    KeyEffect::Stop(p) => return Ok(Observed::Stop(p)),
                    KeyEffect::Entered { .. } => {
                        self.refuse_arrows(
                            "the game ignored the digit key that came after arrow keys",
                        );
                        return self.entered(false);
                    }
                    KeyEffect::Elsewhere(w) => {
                        self.put_back(w, expect)?;
                        self.refuse_arrows(&format!(
                            "after arrow keys the digit for {} went to {}",
                            cell_name(m.cell),
                            cell_name(w)
                        ));
                        *selected = Some(w);
                        continue;
                    }
                    KeyEffect::Nothing => {
                        self.refuse_arrows("after arrow keys the digit key showed nothing");
                        *selected = None;
                        continue;
                    }
                }
            }
            match effect {
                KeyEffect::Entered { tries, drawn_after }
                    if !had_pad && self.model.pad.is_some() =>
                {
                    // The digit key showed nothing and the pad's button entered it.
                    let [(x, y), ..] = self.model.pad.unwrap_or_default();
                    info!(
                        "learnt: a digit key showed nothing and its number pad enters digits (button 1 at {x},{y} in the window)"
                    );
                    debug!("{tries} tries");
                    self.model.method = Some(InputMethod::Pad);
                    if let Some(d) = drawn_after {
                        self.model.latency = self.model.latency.max(d);
                    }
                    // The pad's first press went in: one move that went as expected
                    // with the pad.
                    return self.entered(true);
                }
                KeyEffect::Entered { tries, drawn_after } => {
                    debug!(
                        "observed {}: selection shown after {:?} ms, digit drawn after {:?} ms, {tries} key tries",
                        cell_name(m.cell),
                        shown_after,
                        drawn_after
                    );
                    if let Some(d) = drawn_after {
                        self.model.latency = self.model.latency.max(d);
                    }
                    // A selection drawn clearly later than the digit is drawn (more
                    // than two frames of a 60 Hz screen): the focus may follow the click
                    // late. The next move tries it without risk.
                    if let (Some(shown), Some(drawn)) = (shown_after, drawn_after) {
                        let gap = shown.saturating_sub(drawn);
                        if gap > 35
                            && gap + 10 > self.pace.after_click
                            && !self.model.focus_in_time
                            && self.model.focus_gap.is_none()
                        {
                            self.model.focus_gap = Some(gap);
                            first_try = false;
                        }
                    }
                    if tries > 1 {
                        first_try = false;
                        let took = key_sent.elapsed().as_millis() as u64;
                        self.pace.after_click =
                            self.pace.after_click.max(took.min(self.pace.slowest));
                        info!(
                            "learnt: the game ignores a key that comes soon after a click; {} ms after a click from now on",
                            self.pace.after_click
                        );
                    }
                    return self.entered(first_try);
                }
                KeyEffect::Stop(p) => return Ok(Observed::Stop(p)),
                KeyEffect::Elsewhere(w) => {
                    first_try = false;
                    self.model.confirmed = 0;
                    self.put_back(w, expect)?;
                    // The cell selected before the click, or a click that visibly
                    // selected this one: the focus came late.
                    let late = before_click == Some(w) || self.model.shows_selection == Some(true);
                    if late && self.model.method != Some(InputMethod::Keys) {
                        self.pace.slower();
                        info!(
                            "learnt: the game takes the focus late (the digit for {} went to {}); {} ms after a click from now on",
                            cell_name(m.cell),
                            cell_name(w),
                            self.pace.after_click
                        );
                        *selected = Some(w);
                    } else {
                        info!(
                            "learnt: a click does not move the game's cursor (the digit for {} went to {}); playing with arrow keys from there",
                            cell_name(m.cell),
                            cell_name(w)
                        );
                        self.model.method = Some(InputMethod::Keys);
                        *selected = Some(w);
                    }
                }
                KeyEffect::Nothing => {
                    first_try = false;
                    self.model.confirmed = 0;
                    // The click selected the cell but keys do nothing: a number pad?
                    if self.model.shows_selection == Some(true) && !self.model.pad_searched {
                        self.model.pad_searched = true;
                        if let Some(pad) = self.find_pad(map, origin)? {
                            info!(
                                "learnt: the game takes no digit keys; its number pad enters digits (button 1 at {},{} in the window)",
                                pad[0].0, pad[0].1
                            );
                            self.model.pad = Some(pad);
                            self.model.method = Some(InputMethod::Pad);
                            continue;
                        }
                    }
                    match self.find_cursor(map, origin, start)? {
                        Some(cursor) => {
                            info!(
                                "learnt: the game is played with the keyboard only; its cursor is at {}; playing with arrow keys",
                                cell_name(cursor)
                            );
                            self.model.method = Some(InputMethod::Keys);
                            *selected = Some(cursor);
                        }
                        None => {
                            return Err(BotError::Unlearnt(format!(
                                "neither a click on {} nor the key {} changed anything, and no cursor of the game's could be found; set [input] method in config.toml",
                                cell_name(m.cell),
                                m.digit
                            )))
                        }
                    }
                }
            }
        }
        Err(BotError::Unlearnt(format!(
            "the digit for {} did not go into its cell after three tries",
            cell_name(m.cell)
        )))
    }

    /// Counts a move that went in: `first_try` when it went as expected at the pace in
    /// use. Says the model once learning ends.
    fn entered(&mut self, first_try: bool) -> Result<Observed, BotError> {
        self.model.confirmed = if first_try {
            self.model.confirmed + 1
        } else {
            0
        };
        if !self.model.learning() {
            info!(
                "learnt: {}; {} ms after a click, {} ms after a key (learning took {} ms)",
                describe_method(self.model.method.unwrap_or_default()),
                self.pace.after_click,
                self.pace.after_key,
                self.model.started.map_or(0, |t| t.elapsed().as_millis())
            );
        }
        Ok(Observed::Entered)
    }

    /// Whether the next move is worth playing with arrow keys on trial: the game is
    /// clicked by default, shows the cell a click selects, and the last move (to
    /// `selected`, another cell than `cell`) went in as expected, or went in with its
    /// selection drawn late (arrows then spare the probe of a late focus).
    fn arrows_worth_a_try(&self, cell: usize, selected: Option<usize>) -> bool {
        self.model.arrows == Arrows::Untried
            && self.model.method.is_none()
            && self.model.shows_selection == Some(true)
            && (self.model.confirmed >= 1 || self.model.focus_gap.is_some())
            && selected.is_some_and(|s| s != cell)
    }

    /// Goes back to clicking cells, for `why` (said with -v).
    pub(super) fn refuse_arrows(&mut self, why: &str) {
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
    pub(super) fn arrows_despite_lag(
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
            Selection::Moved => {}
            Selection::Stayed => return Ok(None),
            Selection::GridChanged(why) => return Ok(Some(Observed::Stop(Played::Paused(why)))),
        }
        let wait = self.first_wait().max(ARROW_LOOK_MS);
        if let Some(stop) = self.focus_lost(start, map)? {
            return Ok(Some(Observed::Stop(stop)));
        }
        self.focus_box = map.cell_box(m.cell);
        self.input.key(Key::Digit(m.digit))?;
        let at = Instant::now();
        self.last_input = Some(at);
        while at.elapsed() < Duration::from_millis(wait) {
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
    fn still_looks(
        &mut self,
        typed: usize,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<[Look; 81], BotError> {
        let at = Instant::now();
        let mut last = self.cell_looks(map, origin)?;
        while at.elapsed() < Duration::from_millis(200) {
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
    fn arrows_took(
        &mut self,
        before: &[Look; 81],
        from: usize,
        to: usize,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Selection, BotError> {
        let wait = self.first_wait().max(ARROW_LOOK_MS);
        let at = Instant::now();
        while at.elapsed() < Duration::from_millis(wait) {
            let changed = self.changed_cells(before, map, origin)?;
            if changed.len() > 40 {
                let why = format!(
                    "arrow keys changed {} cells of the grid (the page scrolled?); looking again",
                    changed.len()
                );
                self.refuse_arrows(&why);
                return Ok(Selection::GridChanged(why));
            }
            if changed.contains(&from) && changed.contains(&to) {
                return Ok(Selection::Moved);
            }
            self.pause(5);
        }
        self.refuse_arrows(&format!(
            "arrow keys did not move the selection from {} to {}",
            cell_name(from),
            cell_name(to)
        ));
        Ok(Selection::Stayed)
    }

    /// The cells that look different now from `before`.
    fn changed_cells(
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

    /// How long the first look after an input waits before calling it lost: longer on
    /// a screen that shows the game's answers late (a compositor's stream).
    fn first_wait(&self) -> u64 {
        FIRST_WAIT_MS.max(2 * self.model.latency)
    }

    /// Clicks the cell of `m` and looks for the click's effect on it.
    /// `quiet`: the click is not looked after (a probe, or a cell already selected).
    fn observed_click(
        &mut self,
        m: Move,
        map: &CellMap,
        origin: (i32, i32),
        quiet: bool,
    ) -> Result<Clicked, BotError> {
        let before = self.cell_looks(map, origin)?[m.cell];
        let mut wait = self.first_wait();
        for tries in 1..=TRIES {
            self.input.click(m.at)?;
            let at = Instant::now();
            self.last_input = Some(at);
            if quiet {
                return Ok(Clicked {
                    tries,
                    at,
                    shown_after: None,
                });
            }
            // A game that shows no selection has nothing to wait for.
            let limit = if self.model.shows_selection == Some(false) {
                0
            } else {
                wait
            };
            while at.elapsed() < Duration::from_millis(limit) {
                let now = self.cell_looks(map, origin)?[m.cell];
                if looks_differ(&before, &now) {
                    self.model.shows_selection = Some(true);
                    return Ok(Clicked {
                        tries,
                        at,
                        shown_after: Some(at.elapsed().as_millis() as u64),
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
                });
            }
            debug!("the click on {} changed nothing; again", cell_name(m.cell));
            wait *= 2;
        }
        Ok(Clicked {
            tries: TRIES,
            at: Instant::now(),
            shown_after: None,
        })
    }

    /// Types the digit of `m` and looks where it lands: in its cell, in another, or
    /// nowhere (then it is typed again, up to four times, with longer looks).
    #[allow(clippy::too_many_arguments)]
    fn observed_key(
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
        for tries in 1..=tries_max {
            match self.pad_button(m.digit, origin) {
                Some(button) => {
                    if let Some(why) = self.unsafe_to_act(start, map, &[button])? {
                        return Ok(KeyEffect::Stop(Played::Paused(why)));
                    }
                    self.input.click(button)?;
                    *left_pointer_at = Some(button);
                }
                None => {
                    if let Some(stop) = self.focus_lost(start, map)? {
                        return Ok(KeyEffect::Stop(stop));
                    }
                    self.input.key(Key::Digit(m.digit))?;
                }
            }
            let at = Instant::now();
            self.last_input = Some(at);
            let mut drawing = false;
            let mut drawn_after = None;
            loop {
                if drawing && at.elapsed() >= Duration::from_millis(wait.max(400)) {
                    // The cell changed but does not read as the digit: the game took
                    // the key; what it shows is for the looks and verification to judge.
                    debug!(
                        "{} changed but does not read {} yet",
                        cell_name(m.cell),
                        m.digit
                    );
                    return Ok(KeyEffect::Entered { tries, drawn_after });
                }
                if !drawing && at.elapsed() >= Duration::from_millis(wait) {
                    break;
                }
                let changed = self.changed_cells(before, map, origin)?;
                if changed.contains(&m.cell) {
                    drawn_after.get_or_insert(at.elapsed().as_millis() as u64);
                }
                if !changed.is_empty() {
                    if let Some(read) = self.read_grid_now()? {
                        if read[m.cell] == m.digit {
                            return Ok(KeyEffect::Entered { tries, drawn_after });
                        }
                        let elsewhere = (0..81)
                            .find(|&i| i != m.cell && read[i] == m.digit && expect[i] != m.digit);
                        if let Some(w) = elsewhere {
                            return Ok(KeyEffect::Elsewhere(w));
                        }
                    }
                    // Something is being drawn (a fade, a closing popover): wait for it.
                    drawing |= changed.contains(&m.cell);
                }
                self.pause(5);
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
            wait *= 2;
        }
        Ok(KeyEffect::Nothing)
    }

    /// Puts cell `w` back as it was before a digit went there by mistake (the game's
    /// focus is on it now): its own digit typed again when it had one, else erased
    /// (Backspace, and Delete when that did nothing).
    fn put_back(&mut self, w: usize, expect: &[u8; 81]) -> Result<(), BotError> {
        let keys: Vec<Key> = if expect[w] != 0 {
            vec![Key::Digit(expect[w])]
        } else {
            vec![Key::Backspace, Key::Delete]
        };
        for key in keys {
            self.input.key(key)?;
            self.last_input = Some(Instant::now());
            let at = Instant::now();
            while at.elapsed() < Duration::from_millis(300) {
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

    /// Finds the game's own cursor: one arrow key moves it, and the two cells whose
    /// look that swaps are where it was and where it is now. Right is tried, then Left.
    fn find_cursor(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
        start: &WindowView,
    ) -> Result<Option<usize>, BotError> {
        for key in [Key::Right, Key::Left] {
            if let Some(cursor) = self.cursor_after(key, CURSOR_LOOK_MS, map, origin, start)? {
                return Ok(Some(cursor));
            }
        }
        Ok(None)
    }

    /// Sends the arrow `key` and watches the grid for `wait` ms: two cells of a row
    /// that take on new looks are where the game's cursor was and where it is now
    /// (returned). `None` when nothing like that showed, or when the game lost the
    /// keyboard focus (then nothing is sent).
    fn cursor_after(
        &mut self,
        key: Key,
        wait: u64,
        map: &CellMap,
        origin: (i32, i32),
        start: &WindowView,
    ) -> Result<Option<usize>, BotError> {
        let before = &self.cell_looks(map, origin)?;
        if self.focus_lost(start, map)?.is_some() {
            return Ok(None);
        }
        self.input.key(key)?;
        self.last_input = Some(Instant::now());
        let at = Instant::now();
        while at.elapsed() < Duration::from_millis(wait) {
            let changed = self.changed_cells(before, map, origin)?;
            if let [a, b] = changed[..] {
                if a / 9 == b / 9 {
                    // Right moves to the right-hand cell, unless it wrapped round.
                    let wrapped = b - a > 1;
                    return Ok(Some(match (key, wrapped) {
                        (Key::Right, false) | (Key::Left, true) => b,
                        _ => a,
                    }));
                }
            }
            if changed.len() > 2 {
                debug!("an arrow key changed {} cells", changed.len());
                break;
            }
            self.pause(10);
        }
        Ok(None)
    }

    /// Looks for a keyboard-only game's cursor after a click that showed nothing: one
    /// Right, watched for the first look's wait. When it showed nothing, a Left undoes
    /// it (a game may move a selection it does not draw), unwatched.
    fn cursor_probe(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
        start: &WindowView,
    ) -> Result<Option<usize>, BotError> {
        let wait = self.first_wait();
        let found = self.cursor_after(Key::Right, wait, map, origin, start)?;
        if found.is_none() && self.focus_lost(start, map)?.is_none() {
            self.input.key(Key::Left)?;
            self.last_input = Some(Instant::now());
        }
        Ok(found)
    }

    /// Where the learnt number pad's button for `digit` is on the screen, when the
    /// game is played with its pad.
    pub(super) fn pad_button(&self, digit: u8, origin: (i32, i32)) -> Option<ScreenPoint> {
        if self.model.method != Some(InputMethod::Pad) {
            return None;
        }
        let (x, y) = self.model.pad?[usize::from(digit.checked_sub(1)?)];
        Some(ScreenPoint {
            x: origin.0 + x,
            y: origin.1 + y,
        })
    }

    /// Finds a number pad in the window, outside the grid: glyphs of one size that read
    /// 1 to 9, each once. Their centres, window pixels.
    fn find_pad(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<Option<[(i32, i32); 9]>, BotError> {
        let capture = self.screen.capture()?;
        let grid = ScreenRect {
            x: map.grid.x - origin.0,
            y: map.grid.y - origin.1,
            ..map.grid
        };
        let cell = map.grid.width as f32 / 9.0;
        let mut found: Vec<(u32, u8, (i32, i32))> = Vec::new();
        for glyph in pad_glyphs(&capture, &grid, cell) {
            let words = self
                .reader
                .read_words(&DynamicImage::ImageLuma8(glyph.picture))
                .map_err(|e| BotError::Reader(e.to_string()))?;
            let digit = match words.trim().as_bytes() {
                [d @ b'1'..=b'9'] => Some(d - b'0'),
                // A lone 1 is often read as a letter or a bar.
                [b'l' | b'I' | b'|'] => Some(1),
                _ => None,
            };
            if let Some(d) = digit {
                found.push((glyph.height, d, glyph.center));
            }
        }
        // The pad's digits share one size: take the size at which all nine read.
        let mut heights: Vec<u32> = found.iter().map(|f| f.0).collect();
        heights.sort_unstable();
        heights.dedup();
        for h in heights {
            let same: Vec<&(u32, u8, (i32, i32))> =
                found.iter().filter(|f| f.0.abs_diff(h) <= 2).collect();
            let mut pad = [None; 9];
            let mut twice = false;
            for f in &same {
                let slot = &mut pad[usize::from(f.1 - 1)];
                twice |= slot.is_some();
                *slot = Some(f.2);
            }
            if !twice && pad.iter().all(Option::is_some) {
                return Ok(Some(pad.map(|p| p.unwrap_or_default())));
            }
        }
        debug!("no number pad: digits read outside the grid {found:?}");
        Ok(None)
    }

    /// The look of every cell in a capture taken now.
    fn cell_looks(&mut self, map: &CellMap, origin: (i32, i32)) -> Result<[Look; 81], BotError> {
        let capture = self.screen.capture()?;
        Ok(cell_looks(&capture, map, origin))
    }
}

/// What arrow keys on trial did to the game's selection.
enum Selection {
    Moved,
    Stayed,
    /// Most of the grid changed: why, to wait and look again.
    GridChanged(String),
}

/// What a click did.
struct Clicked {
    /// Clicks sent (more than one: the game ignored the first).
    tries: u32,
    /// When the click that took was sent.
    at: Instant,
    /// Milliseconds until the cell showed as selected (when it did).
    shown_after: Option<u64>,
}

/// Where a digit key's digit went.
enum KeyEffect {
    /// `drawn_after`: milliseconds from the key to the first change in the cell.
    Entered {
        tries: u32,
        drawn_after: Option<u64>,
    },
    Elsewhere(usize),
    Nothing,
    Stop(Played),
}

/// How the bot says an input method in `-v`.
pub(super) fn describe_method(method: InputMethod) -> &'static str {
    match method {
        InputMethod::Click => "a click selects a cell, a key enters its digit",
        InputMethod::Keys => "arrow keys move the game's cursor, a key enters the digit",
        InputMethod::Pad => "a click selects a cell, the number pad enters its digit",
    }
}

/// The look of each cell of `map` in `picture` (a capture whose top-left corner is at
/// `origin` on the screen).
fn cell_looks(picture: &RgbaImage, map: &CellMap, origin: (i32, i32)) -> [Look; 81] {
    let cell = (map.grid.width.min(map.grid.height) as f32 / 9.0).max(1.0);
    let half = cell * 0.35;
    std::array::from_fn(|i| {
        let c = map.center(i);
        let (cx, cy) = ((c.x - origin.0) as f32, (c.y - origin.1) as f32);
        let mut look = [0u8; 36];
        for (b, v) in look.iter_mut().enumerate() {
            let (bx, by) = ((b % 6) as f32, (b / 6) as f32);
            let x0 = cx - half + bx * half / 3.0;
            let y0 = cy - half + by * half / 3.0;
            let (mut sum, mut n) = (0u32, 0u32);
            let step = (half / 9.0).max(1.0);
            let mut y = y0;
            while y < y0 + half / 3.0 {
                let mut x = x0;
                while x < x0 + half / 3.0 {
                    if x >= 0.0
                        && y >= 0.0
                        && (x as u32) < picture.width()
                        && (y as u32) < picture.height()
                    {
                        let p = picture.get_pixel(x as u32, y as u32).0;
                        sum += (p[0] as u32 * 3 + p[1] as u32 * 6 + p[2] as u32) / 10;
                        n += 1;
                    }
                    x += step;
                }
                y += step;
            }
            *v = sum.checked_div(n).unwrap_or(0) as u8;
        }
        look
    })
}

fn looks_differ(a: &Look, b: &Look) -> bool {
    a.iter()
        .zip(b)
        .any(|(&x, &y)| (x as i32 - y as i32).abs() > LOOK_CHANGE)
}

/// A glyph outside the grid, cut out for reading.
struct Glyph {
    picture: image::GrayImage,
    height: u32,
    center: (i32, i32),
}

/// Glyphs of digit size (a quarter to nine tenths of a cell tall) outside `grid` in
/// `picture`: connected ink that stands out from the window's most common grey by more
/// than 100 levels, each cut out with a margin, dark on light.
fn pad_glyphs(picture: &RgbaImage, grid: &ScreenRect, cell: f32) -> Vec<Glyph> {
    use imageproc::region_labelling::{connected_components, Connectivity};
    let gray = image::imageops::grayscale(picture);
    let mut histogram = [0u32; 256];
    for p in gray.pixels() {
        histogram[p.0[0] as usize] += 1;
    }
    let background = (0..256).max_by_key(|&v| histogram[v]).unwrap_or(255) as i32;
    let in_grid = |x: u32, y: u32| grid.contains(x as i32, y as i32);
    let ink = image::GrayImage::from_fn(gray.width(), gray.height(), |x, y| {
        let v = gray.get_pixel(x, y).0[0] as i32;
        image::Luma([if !in_grid(x, y) && (v - background).abs() > 100 {
            255
        } else {
            0
        }])
    });
    let labels = connected_components(&ink, Connectivity::Eight, image::Luma([0u8]));
    let mut boxes: HashMap<u32, (u32, u32, u32, u32)> = HashMap::new();
    for (x, y, l) in labels.enumerate_pixels() {
        if l.0[0] == 0 {
            continue;
        }
        let b = boxes.entry(l.0[0]).or_insert((x, y, x, y));
        *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
    }
    let (low, high) = ((cell * 0.25) as u32, (cell * 0.9) as u32);
    let mut glyphs: Vec<Glyph> = boxes
        .values()
        .filter_map(|&(x0, y0, x1, y1)| {
            let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
            if h < low.max(6) || h > high || w > h * 6 / 5 {
                return None;
            }
            let margin = h / 2;
            let (cx0, cy0) = (x0.saturating_sub(margin), y0.saturating_sub(margin));
            let (cx1, cy1) = (
                (x1 + margin).min(gray.width() - 1),
                (y1 + margin).min(gray.height() - 1),
            );
            let mut cut =
                image::imageops::crop_imm(&gray, cx0, cy0, cx1 - cx0 + 1, cy1 - cy0 + 1).to_image();
            if background < 128 {
                image::imageops::invert(&mut cut);
            }
            Some(Glyph {
                picture: cut,
                height: h,
                center: (((x0 + x1) / 2) as i32, ((y0 + y1) / 2) as i32),
            })
        })
        .collect();
    // A pad's digits are usually the biggest glyphs outside the grid; text elsewhere
    // in the window can be long.
    glyphs.sort_by_key(|g| std::cmp::Reverse(g.height));
    glyphs.truncate(40);
    glyphs
}

/// The given nearest to `cell` (a cell of the puzzle that still holds its digit).
fn nearest_given(givens: &[u8; 81], now: &[u8; 81], cell: usize) -> Option<usize> {
    let distance = |g: usize| (g / 9).abs_diff(cell / 9) + (g % 9).abs_diff(cell % 9);
    (0..81)
        .filter(|&g| givens[g] != 0 && now[g] == givens[g])
        .min_by_key(|&g| distance(g))
}
