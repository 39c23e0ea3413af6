//! Pacing: the pauses a game needs between inputs. The configured delays are where it
//! starts; moves that did not take, or digits that landed in the wrong cell, make it
//! slower for the rest of the watch.

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
