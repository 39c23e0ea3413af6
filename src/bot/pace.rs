//! Pacing: the pauses a game needs between inputs. The configured delays are where it
//! starts; moves that did not take, or digits that landed in the wrong cell, make it
//! slower for the rest of the watch. Once the game is learnt, shorter pauses are tried
//! on a few moves at a time and kept while every digit shows in its cell ([`Trial`]).

use crate::config::Delays;

/// The pauses in use, milliseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pace {
    pub after_click: u64,
    pub after_key: u64,
    pub after_arrow: u64,
    /// No pause grows beyond this (`delays.slowest`).
    pub slowest: u64,
}

/// A pause that grows is at least this long.
const SLOW_STEP: u64 = 20;

impl Pace {
    pub fn new(delays: &Delays) -> Pace {
        Pace {
            after_click: delays.after_click,
            after_key: delays.after_key,
            after_arrow: delays.after_arrow,
            slowest: delays.slowest.max(delays.after_click).max(delays.after_key),
        }
    }

    /// Slower by what a look saw (`latency`: the longest the game took to draw an
    /// input's effect, ms). The pause after a click grows fourfold, and at once to the
    /// game's latency when that is longer (a key the game takes before it has taken
    /// the click goes to the cell before: a game that draws late takes its input late),
    /// but not past twice that latency.
    /// The pauses after keys grow fourfold only when no digit went to another cell
    /// (`misplaced`): a digit in another cell was a key taken, too soon after its
    /// click, and keys after keys need nothing more. False when nothing grew.
    pub fn slower_for(&mut self, misplaced: bool, latency: u64) -> bool {
        let before = self.clone();
        let mut click = (self.after_click * 4).max(latency).max(SLOW_STEP);
        if latency >= SLOW_STEP {
            // Twice the game's latency is time enough for it to take a click: one late
            // click on a busy machine must not slow every move to a second.
            click = click.min((2 * latency).max(self.after_click));
        }
        self.after_click = click.min(self.slowest.max(self.after_click));
        if !misplaced {
            for pause in [&mut self.after_key, &mut self.after_arrow] {
                *pause = (*pause * 4).max(SLOW_STEP).min(self.slowest.max(*pause));
            }
        }
        *self != before
    }

    /// The game lost moves or took digits into the cell it had before: every pause
    /// grows fourfold (at least to 20 ms, at most to `slowest`). False when already slowest.
    pub fn slower(&mut self) -> bool {
        let before = self.clone();
        for pause in [
            &mut self.after_click,
            &mut self.after_key,
            &mut self.after_arrow,
        ] {
            *pause = (*pause * 4).max(SLOW_STEP).min(self.slowest.max(*pause));
        }
        *self != before
    }
}

/// The search for the shortest pauses the game keeps up with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Trial {
    /// Not begun (the game is still being learnt).
    #[default]
    NotYet,
    /// The pace in use is being tried on the moves to `cells`; `good` is the last
    /// pace that every move kept up with.
    Trying { good: Pace, cells: Vec<usize> },
    /// Over: the pace in use is the one to keep.
    Done,
}

/// The shortest pauses tried after a click and after a key (`[delays] shorten`).
/// Chromium under Xvfb on a loaded machine took a key before the click sent ahead of
/// it (the digit went to the cell before) in 2 of 11 runs of the plain page at 2 ms
/// and 0 ms, and in 2 of 3 at 1 ms; at 5 ms and 1 ms in none of 8 there, but in 1 of
/// 6 runs of the text-field page at load average 6.
const MIN_AFTER_CLICK: u64 = 5;
const MIN_AFTER_KEY: u64 = 1;

/// Moves a shorter pace is tried on before the look that judges it.
pub const TRIAL_MOVES: usize = 8;

impl Pace {
    /// The next pace to try. Pauses that learning made longer than configured go back
    /// to their configured length first (the hypotheses that made them longer are put
    /// to the test, see beliefs.rs). Else, when `halve` (`[delays] shorten`),
    /// `after_click` and `after_key` are halved (down to 5 ms and 1 ms). `None` when
    /// nothing is left to try.
    pub fn shorter(&self, configured: &Delays, halve: bool) -> Option<Pace> {
        let back = Pace {
            after_click: self.after_click.min(configured.after_click),
            after_key: self.after_key.min(configured.after_key),
            after_arrow: self.after_arrow.min(configured.after_arrow),
            ..self.clone()
        };
        if back != *self {
            return Some(back);
        }
        if !halve {
            return None;
        }
        let next = Pace {
            after_click: (self.after_click / 2)
                .max(MIN_AFTER_CLICK)
                .min(self.after_click),
            after_key: (self.after_key / 2).max(MIN_AFTER_KEY).min(self.after_key),
            ..self.clone()
        };
        (next != *self).then_some(next)
    }
}

/// Whether what the grid reads after playing says the game needs more time: digits
/// where the bot typed none or in the wrong place (a cell the bot filled holds a digit
/// it did not type there, as when the focus follows a click late and the digit goes to
/// the cell before), or more than two cells that did not take.
pub fn too_fast(read: &[u8; 81], puzzle: &[u8; 81], solution: &[u8; 81]) -> bool {
    let misplaced = (0..81)
        .filter(|&i| puzzle[i] == 0 && read[i] != 0 && read[i] != solution[i])
        .count();
    let missing = (0..81).filter(|&i| read[i] == 0).count();
    misplaced > 0 || missing > 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_grow_fourfold_from_at_least_20_ms_up_to_a_second() {
        let mut pace = Pace::new(&Delays::default());
        assert!(pace.slower());
        assert_eq!(
            pace,
            Pace {
                after_click: 40,
                after_key: 20,
                after_arrow: 20,
                slowest: 1000
            }
        );
        while pace.slower() {}
        assert_eq!(pace.after_click, 1000);
        assert_eq!(pace.after_key, 1000);
    }

    #[test]
    fn a_click_pause_grows_to_the_games_latency_and_keys_only_when_no_digit_was_misplaced() {
        let mut pace = Pace::new(&Delays::default());
        // Digits in other cells: the click's pause goes to the game's 170 ms at once,
        // the keys' stay.
        assert!(pace.slower_for(true, 170));
        assert_eq!(
            (pace.after_click, pace.after_key, pace.after_arrow),
            (170, 2, 1)
        );
        // Then fourfold, but not past twice the latency.
        assert!(pace.slower_for(true, 170));
        assert_eq!((pace.after_click, pace.after_key), (340, 2));
        assert!(!pace.slower_for(true, 170));
        // Digits lost alone: the keys' pauses grow too.
        assert!(pace.slower_for(false, 170));
        assert_eq!(
            (pace.after_click, pace.after_key, pace.after_arrow),
            (340, 20, 20)
        );
        while pace.slower_for(false, 170) {}
        assert_eq!((pace.after_click, pace.after_key), (340, 1000));
        // A game whose latency is not known (under 20 ms): fourfold up to a second.
        let mut pace = Pace::new(&Delays::default());
        while pace.slower_for(true, 0) {}
        assert_eq!((pace.after_click, pace.after_key), (1000, 2));
    }

    #[test]
    fn shorter_pauses_halve_down_to_five_and_one_ms() {
        let configured = Delays::default();
        let mut pace = Pace::new(&configured);
        let mut tried = Vec::new();
        while let Some(next) = pace.shorter(&configured, true) {
            tried.push((next.after_click, next.after_key));
            pace = next;
        }
        assert_eq!(tried, [(5, 1)]);
        assert_eq!(Pace::new(&configured).shorter(&configured, false), None);
    }

    #[test]
    fn pauses_learnt_longer_are_tried_at_their_configured_length_first() {
        let configured = Delays::default();
        let mut pace = Pace::new(&configured);
        pace.after_click = 85;
        pace.after_key = 1000;
        for halve in [false, true] {
            let next = pace.shorter(&configured, halve).unwrap();
            assert_eq!(
                (next.after_click, next.after_key),
                (configured.after_click, configured.after_key)
            );
        }
    }

    #[test]
    fn a_digit_in_the_wrong_cell_or_many_missing_means_too_fast() {
        let puzzle = [0u8; 81];
        let solution: [u8; 81] = std::array::from_fn(|i| (i % 9) as u8 + 1);
        let mut read = solution;
        assert!(!too_fast(&read, &puzzle, &solution));
        read[0] = 0;
        read[1] = 0;
        assert!(!too_fast(&read, &puzzle, &solution), "two lost digits");
        read[2] = 0;
        assert!(too_fast(&read, &puzzle, &solution), "three lost digits");
        let mut read = solution;
        read[5] = read[4];
        assert!(
            too_fast(&read, &puzzle, &solution),
            "a digit in the wrong cell"
        );
    }
}
