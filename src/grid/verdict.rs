//! Whether a grid as read is a puzzle to act on: the one decision that the screenshot
//! reader, the photo reader, `overlay` and the bot share. The verdict is given above
//! the solver ([`Verdict::of`] in `solver/verdict.rs`, the one place a reading is
//! solved); here is what it says.

use super::{cell_names, Grid};

/// What a reading allows. Made by [`Verdict::of`], once, when a reading is finished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution: to be played or drawn.
    Unique(Grid),
    /// Consistent givens with more than one solution; one of them. Games deal such
    /// puzzles (the bot may play one, `[puzzle] several_solutions`); on paper or in a
    /// photo it means a digit was missed, and the photo reader and `overlay` refuse it.
    Several(Grid),
    /// Not to be acted on: why, in words a user reads after "cannot read", and the cells
    /// (0..81) to blame. A reading is doubtful until it is judged.
    Doubtful { reason: String, cells: Vec<usize> },
}

impl Verdict {
    /// The verdict of a reading not judged yet: doubtful, so that nothing acts on it.
    pub fn unjudged() -> Verdict {
        Verdict::Doubtful {
            reason: "the reading was not judged".into(),
            cells: Vec::new(),
        }
    }

    /// The verdict where a puzzle with several solutions is not to be acted on (a
    /// photo, `overlay`): [`Verdict::Several`] turns doubtful, blaming `unsure` (the
    /// reading's least sure cells: a digit read as empty is the likely cause).
    pub fn unique_only(self, unsure: impl FnOnce() -> Vec<usize>) -> Verdict {
        match self {
            Verdict::Several(_) => Verdict::Doubtful {
                reason: "the puzzle read has more than one solution".into(),
                cells: unsure(),
            },
            other => other,
        }
    }

    /// The solution to act on: the one solution, or one of several.
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Verdict::Unique(s) | Verdict::Several(s) => Some(s),
            Verdict::Doubtful { .. } => None,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Unique(_) => f.write_str("one solution"),
            Verdict::Several(_) => f.write_str("more than one solution"),
            Verdict::Doubtful { reason, cells } if cells.is_empty() => f.write_str(reason),
            Verdict::Doubtful { reason, cells } => {
                write!(f, "{reason} (doubtful cells: {})", cell_names(cells))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unjudged_reading_is_not_to_be_acted_on() {
        assert_eq!(Verdict::unjudged().solution(), None);
    }
}
