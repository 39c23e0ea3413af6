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
mod lessons;
mod looks;
mod moves;
mod pad;
mod popover;
mod recalled;

use arrows::ArrowsDid;
use inputs::{Clicked, KeyEffect};
use looks::{looks_differ, Look};
use moves::{KeySent, Observing, Selection, Then};
pub(in crate::bot) use popover::Popover;

/// Moves in a row that must go as expected before the bot stops looking after each.
pub(super) const CONFIRM_MOVES: u32 = 2;
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
/// The first look's wait until the game has answered any input.
const UNANSWERED_WAIT_MS: u64 = 1000;
/// No look after an input waits longer than this.
const LONGEST_WAIT_MS: u64 = 3000;
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
    /// Whether the game was seen to answer any input (a selection, a digit drawn).
    pub answered: bool,
    /// Where this game's model is stored (once the game's identity was looked up).
    pub memory: Option<PathBuf>,
    /// Whether the model in use came from there (not learnt in this run).
    pub recalled: bool,
    /// Whether the store was looked at for this game.
    pub memory_checked: bool,
    /// The hypotheses about the game's pace, with what was seen for them.
    pub beliefs: super::beliefs::Beliefs,
    /// What a click opens over the grid (a popover, a number wheel), and what closes it.
    pub popover: Popover,
    /// The number pad is a palette: its digit is picked first, then a click on a cell
    /// enters it (no cell is ever selected).
    pub pad_first: bool,
    /// Whether the pad was tried as such a palette.
    pub pad_first_tried: bool,
    /// What the popover and the palette pad were learnt from (said in -v, stored).
    pub popover_evidence: Option<String>,
    pub pad_first_evidence: Option<String>,
    /// A stored model that says nothing of popovers (written before they were stored).
    pub popover_unknown: bool,
    /// Whether a look in play saw digits typed with the stored model show (its way of
    /// entering digits is proven for this run).
    pub recall_proven: bool,
    /// Whether the first click of a game played from its stored model was watched.
    pub recall_checked: bool,
    /// The stored model is in use and its file is to be written again (it said
    /// nothing of popovers and the first click showed none, or play slowed its pace).
    pub store_outdated: bool,
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
    /// Counts a move that went in: `first_try` when it went as expected at the pace in
    /// use. Says the model once learning ends.
    fn entered(&mut self, first_try: bool) -> Result<Observed, BotError> {
        self.model.confirmed = if first_try {
            self.model.confirmed + 1
        } else {
            0
        };
        if !self.model.learning() {
            let method = if self.model.pad_first {
                "the number pad picks a digit, a click on a cell enters it"
            } else {
                describe_method(self.model.method.unwrap_or_default())
            };
            info!(
                "learnt: {method}; {} ms after a click, {} ms after a key (learning took {} ms)",
                self.pace.after_click,
                self.pace.after_key,
                self.model.started.map_or(0, |t| self.since(t).as_millis())
            );
        }
        Ok(Observed::Entered)
    }

    /// How long the first look after an input waits before calling it lost: longer on
    /// a screen that shows the game's answers late (a compositor's stream).
    /// Until the game has answered any input, the look is long: a slow game on a busy
    /// machine may take a second to draw a click's or a key's effect, and "nothing
    /// changed" is said only after a look at least that long (a look ends as soon as
    /// the effect shows, so a quick game loses nothing).
    fn first_wait(&self) -> u64 {
        if !self.model.answered {
            return UNANSWERED_WAIT_MS;
        }
        FIRST_WAIT_MS
            .max(2 * self.model.latency)
            .min(LONGEST_WAIT_MS)
    }

    /// The next look's wait after one that saw nothing: twice as long, up to
    /// `LONGEST_WAIT_MS`.
    fn longer(wait: u64) -> u64 {
        (wait * 2).min(LONGEST_WAIT_MS).max(wait)
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
