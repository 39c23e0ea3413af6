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

mod arrows;
mod cursor;
mod inputs;
mod looks;
mod pad;

use arrows::Selection;
use inputs::KeyEffect;
use looks::{looks_differ, Look};

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

    /// How long the first look after an input waits before calling it lost: longer on
    /// a screen that shows the game's answers late (a compositor's stream).
    fn first_wait(&self) -> u64 {
        FIRST_WAIT_MS.max(2 * self.model.latency)
    }
}

/// How the bot says an input method in `-v`.
pub(super) fn describe_method(method: InputMethod) -> &'static str {
    match method {
        InputMethod::Click => "a click selects a cell, a key enters its digit",
        InputMethod::Keys => "arrow keys move the game's cursor, a key enters the digit",
        InputMethod::Pad => "a click selects a cell, the number pad enters its digit",
    }
}

/// The given nearest to `cell` (a cell of the puzzle that still holds its digit).
fn nearest_given(givens: &[u8; 81], now: &[u8; 81], cell: usize) -> Option<usize> {
    let distance = |g: usize| (g / 9).abs_diff(cell / 9) + (g % 9).abs_diff(cell % 9);
    (0..81)
        .filter(|&g| givens[g] != 0 && now[g] == givens[g])
        .min_by_key(|&g| distance(g))
}
