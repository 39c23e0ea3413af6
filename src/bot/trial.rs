//! The search for shorter pauses, once the game is learnt (`[delays] shorten`): a trial
//! of the next shorter ones, kept when every move typed at them showed its digit.

use super::beliefs::Claim;
use super::look::Look;
use super::pace::{Trial, TRIAL_MOVES};
use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Begins a trial of the next shorter pauses (`pace::Pace::shorter`), or ends the
    /// search when there are none; `cells` are moves already typed at the new pace.
    pub(super) fn try_shorter_pauses(&mut self, cells: Vec<usize>) {
        // A pause that a confirmed hypothesis needs is not shortened.
        let (click, key) = self.model.beliefs.needs();
        let next = self
            .pace
            .shorter(&self.config.delays, self.config.delays.shorten)
            .map(|mut next| {
                if click {
                    next.after_click = self.pace.after_click;
                }
                if key {
                    next.after_key = self.pace.after_key;
                }
                next
            })
            .filter(|next| *next != self.pace);
        self.model.trial = match next {
            Some(next) => {
                debug!(
                    "trying {} ms after a click, {} ms after a key",
                    next.after_click, next.after_key
                );
                let good = std::mem::replace(&mut self.pace, next);
                Trial::Trying { good, cells }
            }
            None => Trial::Done,
        };
    }

    /// Keeps the pauses on trial when every move typed at them shows its digit in its
    /// cell, and tries shorter ones; else goes back to the last pauses that held and
    /// ends the search (the moves that did not show are entered again by the look).
    pub(super) fn judge_trial(&mut self, look: &Look, trying: &[Move]) {
        let Trial::Trying { good, cells } = &self.model.trial else {
            return;
        };
        // Judged once its moves were typed (some may have been typed again since).
        let typed_on_trial = cells.len();
        let failed: Vec<usize> = match look {
            Look::Retype(cells, _) => trying
                .iter()
                .map(|m| m.cell)
                .filter(|c| cells.contains(c))
                .collect(),
            // Covered: nothing can be told; the trial starts again after the pause.
            Look::Changed(_) => return,
            Look::AsTyped => Vec::new(),
        };
        if failed.is_empty() {
            if typed_on_trial < TRIAL_MOVES {
                return;
            }
            info!(
                "the game keeps up with {} ms after a click, {} ms after a key",
                self.pace.after_click, self.pace.after_key
            );
            self.model.beliefs.drop_all(&format!(
                "{} moves at {} ms after a click, {} ms after a key all showed their digits",
                trying.len(),
                self.pace.after_click,
                self.pace.after_key
            ));
            self.try_shorter_pauses(Vec::new());
            if self.model.trial == Trial::Done {
                self.said_pace();
            }
        } else {
            info!(
                "the game did not keep up with {} ms after a click, {} ms after a key ({} did not show its digit)",
                self.pace.after_click,
                self.pace.after_key,
                cell_names(&failed)
            );
            self.model.beliefs.confirm_all(&format!(
                "at {} ms after a click, {} ms after a key, {} did not show its digit",
                self.pace.after_click,
                self.pace.after_key,
                cell_names(&failed)
            ));
            self.pace = good.clone();
            self.model.trial = Trial::Done;
            self.said_pace();
        }
    }

    /// Holds `claim` for what was `seen`: the pause it made longer is tried again at
    /// its configured length once the game is learnt, unless a trial confirmed it.
    pub(super) fn suppose(&mut self, claim: Claim, seen: String) {
        if claim == Claim::TakesFocusLate {
            // Seen as a digit in the cell selected before: proven, not a late key.
            self.model.beliefs.hold_proven(claim, seen);
            return;
        }
        self.model.beliefs.hold(claim, seen);
        if self.model.trial == Trial::Done && self.model.beliefs.untested() {
            self.model.trial = Trial::NotYet;
        }
    }

    pub(super) fn said_pace(&self) {
        info!(
            "pace: {} ms after a click, {} ms after a key",
            self.pace.after_click, self.pace.after_key
        );
    }
}
