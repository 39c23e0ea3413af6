//! What a game's own words say about the grid: a message window, a dialog or a banner
//! in the page, read with Tesseract and sorted into success, failure or unknown.

/// What a game's message says of the grid (the game's verdict; the bot's own on a reading is
/// [`crate::grid::Verdict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameSays {
    /// Congratulations, well done, solved, complete, you win ...
    Success,
    /// Mistakes, error, wrong, incorrect, try again, not solved ...
    Failure,
    /// Words that say neither (or no words at all).
    Unknown,
}

/// Phrases that deny a failure word ("no mistakes", "without errors"): taken out before
/// looking for failure words.
const NO_FAILURE: &[&str] = &[
    "no mistake",
    "no error",
    "0 mistake",
    "0 error",
    "zero mistake",
    "zero error",
    "without mistake",
    "without error",
    "without any mistake",
    "without any error",
    "no wrong",
];

/// Words of failure. Those that deny success ("not solved", "incomplete") come first:
/// they hold a success word too.
const FAILURE: &[&str] = &[
    "not solved",
    "unsolved",
    "not complete",
    "incomplete",
    "not correct",
    "not quite",
    "not right",
    "incorrect",
    "mistake",
    "error",
    "wrong",
    "try again",
    "sorry",
    "invalid",
    "conflict",
    "failed",
    "game over",
    "oops",
];

/// Words of success that count only as whole words ("Win!", never "window").
const SUCCESS_WORDS: &[&str] = &[" win "];

/// Words of success.
const SUCCESS: &[&str] = &[
    "congratulation",
    "well done",
    "solved",
    "complete",
    "you win",
    "you won",
    "correct",
    "excellent",
    "great job",
    "good job",
    "nice job",
    "perfect",
    "bravo",
    "victory",
    "success",
    "finished",
    "amazing",
    "awesome",
];

/// Sorts a game's message. Case, punctuation and line breaks do not matter; a failure
/// word wins over a success word ("Sorry, not solved"), unless it is denied ("Solved
/// with no mistakes!").
pub fn classify(text: &str) -> GameSays {
    let mut plain: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    plain = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut rest = format!(" {plain} ");
    for phrase in NO_FAILURE {
        rest = rest.replace(phrase, " ");
    }
    if FAILURE.iter().any(|w| rest.contains(w)) {
        return GameSays::Failure;
    }
    if SUCCESS.iter().any(|w| plain.contains(w)) || SUCCESS_WORDS.iter().any(|w| rest.contains(w)) {
        return GameSays::Success;
    }
    GameSays::Unknown
}

/// What a window's words read after play say that its words before play did not: a
/// label that said "solved" all along ("Puzzles solved: 3") proves nothing; only the
/// words that are new since then count.
pub fn new_words_say(before: &str, after: &str) -> GameSays {
    let now = classify(after);
    if now == GameSays::Unknown || classify(before) != now {
        return now;
    }
    let old: std::collections::HashSet<String> = tokens(before).collect();
    let new: Vec<String> = tokens(after).filter(|t| !old.contains(t)).collect();
    classify(&new.join(" "))
}

/// The words of a text, lower case, without punctuation.
fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

/// The game's words as the bot quotes them: one line, at most 120 characters.
pub fn quote(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(120) {
        Some((cut, _)) => format!("\"{}...\"", &line[..cut]),
        None => format!("\"{line}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_messages() {
        for text in [
            "Congratulations! You solved the puzzle.",
            "Well done, you completed the puzzle in 2 minutes",
            "WELL DONE!",
            "Puzzle solved",
            "You win!",
            "Correct!",
            "Solved with no mistakes!",
            "You finished without any errors.",
        ] {
            assert_eq!(classify(text), GameSays::Success, "{text}");
        }
    }

    #[test]
    fn failure_messages() {
        for text in [
            "Sorry, your solution contains mistakes.",
            "There are 3 errors",
            "Wrong!",
            "Not quite - try again",
            "The puzzle is not solved",
            "Incorrect solution",
            "Incomplete",
        ] {
            assert_eq!(classify(text), GameSays::Failure, "{text}");
        }
    }

    #[test]
    fn other_words_are_unknown() {
        for text in ["", "Information", "Play again? Quit", "New game"] {
            assert_eq!(classify(text), GameSays::Unknown, "{text}");
        }
    }

    #[test]
    fn only_words_new_since_play_began_count() {
        assert_eq!(new_words_say("", "You won!"), GameSays::Success);
        assert_eq!(
            new_words_say("Puzzles solved: 3  New game", "Puzzles solved: 3  New game"),
            GameSays::Unknown
        );
        assert_eq!(
            new_words_say("Puzzles solved: 3", "Puzzles solved: 4  Congratulations!"),
            GameSays::Success
        );
        assert_eq!(new_words_say("Sudoku", "Game over"), GameSays::Failure);
    }

    #[test]
    fn quotes_are_one_short_line() {
        assert_eq!(quote("Well\n done!"), "\"Well done!\"");
        assert!(quote(&"word ".repeat(100)).len() < 130);
    }
}
