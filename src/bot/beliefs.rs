//! The game model's inferences about pace as hypotheses: each is held with the
//! observations behind it, said in `-v` when it is made, added to and dropped, and is
//! kept only while later looks agree. A pause a hypothesis made longer is tried again
//! at the configured length once the game is learnt (see trial.rs): moves that land
//! there drop it, moves that do not confirm it.

use std::fmt;

use tracing::info;

/// What the bot may come to think about the game's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// A click soon after a key is ignored: the pause after a key grows.
    IgnoresClickSoonAfterKey,
    /// A key soon after a click is ignored: the pause after a click grows.
    IgnoresKeySoonAfterClick,
    /// The focus follows a click late: a key sooner goes to the cell before.
    TakesFocusLate,
    /// Digits go missing or into the wrong cells at the pace in use.
    LosesMoves,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::IgnoresClickSoonAfterKey => {
                "the game ignores a click that comes soon after a key"
            }
            Claim::IgnoresKeySoonAfterClick => {
                "the game ignores a key that comes soon after a click"
            }
            Claim::TakesFocusLate => "the game takes the focus late after a click",
            Claim::LosesMoves => "the game loses moves at the pace in use",
        })
    }
}

/// Observations said for one hypothesis: the latest; the earlier ones are counted.
const EVIDENCE_KEPT: usize = 3;

/// One hypothesis and what was seen for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Belief {
    pub claim: Claim,
    /// The latest observations, at most [`EVIDENCE_KEPT`].
    pub evidence: Vec<String>,
    /// How many observations came before those.
    pub earlier: usize,
    /// Whether a trial of the configured pauses failed while it was held.
    pub confirmed: bool,
}

impl Belief {
    /// Adds an observation; the oldest beyond [`EVIDENCE_KEPT`] is only counted (a game
    /// played for minutes must not make a line per move longer and longer).
    fn add(&mut self, seen: String) {
        self.evidence.push(seen);
        if self.evidence.len() > EVIDENCE_KEPT {
            self.evidence.remove(0);
            self.earlier += 1;
        }
    }

    /// What was seen, as said: "N earlier; latest; ...".
    pub fn seen(&self) -> String {
        let latest = self.evidence.join("; ");
        match self.earlier {
            0 => latest,
            n => format!("{n} earlier; {latest}"),
        }
    }
}

/// The hypotheses held now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Beliefs {
    held: Vec<Belief>,
}

impl Beliefs {
    /// Holds `claim` for what was `seen` (or adds to it), and says so.
    pub fn hold(&mut self, claim: Claim, seen: String) {
        let belief = match self.held.iter().position(|b| b.claim == claim) {
            Some(i) => &mut self.held[i],
            None => {
                self.held.push(Belief {
                    claim,
                    evidence: Vec::new(),
                    earlier: 0,
                    confirmed: false,
                });
                self.held.last_mut().expect("just pushed")
            }
        };
        belief.add(seen);
        info!("hypothesis: {claim} (seen: {})", belief.seen());
    }

    /// Whether any hypothesis is held that no trial has confirmed.
    pub fn untested(&self) -> bool {
        self.held.iter().any(|b| !b.confirmed)
    }

    /// Later looks disagree (`seen`): every hypothesis not confirmed is dropped, and
    /// said so.
    pub fn drop_all(&mut self, seen: &str) {
        let (confirmed, dropped) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|b| b.confirmed);
        self.held = confirmed;
        for b in dropped {
            info!("dropped: {} ({seen}; it rested on: {})", b.claim, b.seen());
        }
    }

    /// Later looks agree (`seen`): the hypotheses held are confirmed, and said so.
    pub fn confirm_all(&mut self, seen: &str) {
        for b in self.held.iter_mut().filter(|b| !b.confirmed) {
            b.confirmed = true;
            b.add(seen.to_string());
            info!("confirmed: {} (seen: {})", b.claim, b.seen());
        }
    }

    /// Holds `claim` as proven by what was `seen` (a digit in the wrong cell is no
    /// timing accident): no trial puts it to the test.
    pub fn hold_proven(&mut self, claim: Claim, seen: String) {
        self.hold(claim, seen);
        if let Some(b) = self.held.iter_mut().find(|b| b.claim == claim) {
            b.confirmed = true;
        }
    }

    /// Whether a confirmed hypothesis needs the pause after a click, and the one
    /// after a key.
    pub fn needs(&self) -> (bool, bool) {
        let confirmed = |claims: &[Claim]| {
            self.held
                .iter()
                .any(|b| b.confirmed && claims.contains(&b.claim))
        };
        (
            confirmed(&[
                Claim::IgnoresKeySoonAfterClick,
                Claim::TakesFocusLate,
                Claim::LosesMoves,
            ]),
            confirmed(&[Claim::IgnoresClickSoonAfterKey, Claim::LosesMoves]),
        )
    }

    pub fn held(&self) -> &[Belief] {
        &self.held
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hypothesis_gathers_evidence_until_confirmed_or_dropped() {
        let mut b = Beliefs::default();
        assert!(!b.untested());
        b.hold(
            Claim::IgnoresClickSoonAfterKey,
            "a click took 2 tries".into(),
        );
        b.hold(Claim::IgnoresClickSoonAfterKey, "another took 3".into());
        assert_eq!(b.held().len(), 1);
        assert_eq!(b.held()[0].evidence.len(), 2);
        assert!(b.untested());
        b.confirm_all("8 moves at 0 ms: 2 lost");
        assert!(!b.untested());
        b.hold(Claim::LosesMoves, "3 lost".into());
        assert!(b.untested());
        b.drop_all("8 moves landed");
        // The confirmed one stays.
        assert_eq!(b.held().len(), 1);
        assert_eq!(b.held()[0].claim, Claim::IgnoresClickSoonAfterKey);
        // Evidence is bounded: the latest are kept, the others counted.
        for n in 0..10 {
            b.hold(Claim::LosesMoves, format!("{n} lost"));
        }
        let loses = b
            .held()
            .iter()
            .find(|b| b.claim == Claim::LosesMoves)
            .unwrap();
        assert_eq!(loses.evidence, ["7 lost", "8 lost", "9 lost"]);
        assert_eq!(loses.seen(), "7 earlier; 7 lost; 8 lost; 9 lost");
    }
}
