//! The depth-first search over guesses, counting solutions up to a limit, in a
//! portable copy and one compiled for recent x86-64 CPUs, picked at run time.

use super::state::State;
use crate::grid::Grid;

/// A depth-first search counting solutions up to `limit`, keeping the first.
pub(super) struct Search {
    pub(super) limit: usize,
    pub(super) count: usize,
    pub(super) first: Option<Grid>,
}

/// The search, once as written and, on x86-64, once more compiled for the instructions of
/// recent CPUs (POPCNT, BMI1/2, LZCNT, AVX2), picked at run time: the bit counting and
/// scanning of the search are single instructions there. Both copies recurse into
/// themselves.
macro_rules! search_fn {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
            pub(super) fn $name(&mut self, mut state: State) {
                loop {
                    if !state.propagate() {
                        return;
                    }
                    if state.solved() {
                        self.count += 1;
                        if self.first.is_none() {
                            self.first = Some(state.grid());
                        }
                        return;
                    }
                    let (band, p) = state.guess_cell();
                    let mut digits = state.digits_at(band, p);
                    // Try every digit but the last on a copy; the last continues on `state`.
                    while digits & (digits - 1) != 0 {
                        let digit = digits.trailing_zeros() as usize;
                        digits &= digits - 1;
                        let mut trial = state;
                        trial.choose(digit, band, p);
                        self.$name(trial);
                        if self.count >= self.limit {
                            return;
                        }
                        state.narrow(3 * digit + band, !(1 << p));
                    }
                    if digits == 0 {
                        return;
                    }
                    state.choose(digits.trailing_zeros() as usize, band, p);
                }
            }
    };
}

impl Search {
    /// Counts the solutions reachable from `state` (up to `limit`).
    pub(super) fn run(&mut self, state: State) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: `run_x86_v3` only needs the CPU features enabled on it, and every one
            // of them was just detected on this CPU.
            unsafe { self.run_x86_v3(state) };
            return;
        }
        self.run_portable(state);
    }

    search_fn!(run_portable);

    #[cfg(target_arch = "x86_64")]
    search_fn!(
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
        run_x86_v3
    );
}
