//! `sudoku-bot solve`: one answer line a puzzle, from the arguments or standard input.

use std::fmt;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::grid::Grid;
use crate::solver::{self, Solution};

/// The top-level entry point for `sudoku-bot solve [PUZZLE...]`.
///
/// Solves each argument, or, with no arguments, each line of standard input (blank lines
/// and lines starting with '#' skipped), and prints one line a puzzle: the 81-digit
/// solution when it is unique, else `unsolvable`, `multiple`, or `invalid: REASON`. A
/// bad line never stops the lines after it.
///
/// Exit code: 0 when every puzzle was solved uniquely (or there were none), 1 when at
/// least one was unsolvable, had several solutions or was not a puzzle.
pub fn run(puzzles: &[String]) -> anyhow::Result<ExitCode> {
    run_with(puzzles, Options::default())
}

/// How `solve` prints.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// One JSON object a puzzle (JSON Lines): `{"puzzle": ..., "result": "solved",
    /// "solution": ...}`, `"result": "unsolvable" | "multiple"`, or `"result":
    /// "invalid", "reason": ...`.
    pub json: bool,
    /// No prompt on a terminal.
    pub quiet: bool,
}

/// [`run`] with options.
pub fn run_with(puzzles: &[String], opts: Options) -> anyhow::Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut tally = Tally {
        json: opts.json,
        ..Tally::default()
    };
    if puzzles.is_empty() {
        let stdin = io::stdin();
        if stdin.is_terminal() && !opts.quiet {
            eprintln!(
                "sudoku-bot: reading puzzles from standard input, one a line (Ctrl-D to end)"
            );
        }
        answer_lines_into(stdin.lock(), &mut out, &mut tally)?;
    } else {
        for puzzle in puzzles {
            tally.write(&mut out, puzzle, &answer(puzzle))?;
        }
    }
    out.flush()?;
    tracing::info!(
        solved = tally.solved,
        unsolvable = tally.unsolvable,
        multiple = tally.multiple,
        invalid = tally.invalid,
        "done"
    );
    Ok(if tally.all_solved() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The longest puzzle line read (a puzzle is 81 characters; comments and spaces may
/// add some). A longer line is answered `invalid: line too long` and skipped without
/// being kept, so input with no line breaks costs no more memory than this.
pub const MAX_LINE: usize = 4096;

/// Answers each line of `input` on `out` (blank lines and '#' lines skipped); the
/// tally says how many answers of each kind were written.
pub fn answer_lines(input: impl BufRead, out: &mut impl Write) -> anyhow::Result<Tally> {
    let mut tally = Tally::default();
    answer_lines_into(input, out, &mut tally)?;
    Ok(tally)
}

/// [`answer_lines`], printing as `tally` says (JSON or not) and counting into it.
fn answer_lines_into(
    mut input: impl BufRead,
    out: &mut impl Write,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    let mut raw = Vec::with_capacity(128);
    let mut line_number = 0usize;
    loop {
        raw.clear();
        let ended = read_line_capped(&mut input, &mut raw, MAX_LINE)
            .with_context(|| format!("could not read standard input after line {line_number}"))?;
        let Some(too_long) = ended else { break };
        line_number += 1;
        if too_long {
            tally.write(out, "", &Answer::Invalid("line too long".into()))?;
            continue;
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let answer = answer(line);
        tracing::debug!(line = line_number, %answer, "solved");
        tally.write(out, line, &answer)?;
    }
    Ok(())
}

/// Reads one line (up to and without its '\n') into `line`, keeping at most `cap`
/// bytes: the rest of a longer line is read and dropped. `None` at the end of input,
/// else whether the line was longer than `cap`.
fn read_line_capped(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    let (mut any, mut too_long) = (false, false);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let (part, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + part.len() > cap {
            too_long = true;
            line.clear();
        } else if !too_long {
            line.extend_from_slice(part);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(too_long));
        }
    }
}

/// The answer line for one puzzle line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The unique solution.
    Solved(Grid),
    /// Consistent givens, no solution.
    Unsolvable,
    /// More than one solution.
    Multiple,
    /// Not a puzzle: the reason (wrong length or character, clashing givens).
    Invalid(String),
}

/// Parses and solves one puzzle line ('.' or '0' for an empty cell).
pub fn answer(line: &str) -> Answer {
    let grid = match Grid::parse(line) {
        Ok(grid) => grid,
        Err(e) => return Answer::Invalid(e.to_string()),
    };
    match solver::solve(&grid) {
        Solution::Unique(solution) => Answer::Solved(solution),
        Solution::Multiple(_) => Answer::Multiple,
        Solution::Unsolvable => Answer::Unsolvable,
        Solution::Invalid(conflicts) => Answer::Invalid(
            conflicts
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ),
    }
}

impl Answer {
    /// The answer as one JSON object, with the puzzle it answers.
    pub fn to_json(&self, puzzle: &str) -> serde_json::Value {
        match self {
            Answer::Solved(grid) => serde_json::json!({
                "puzzle": puzzle, "result": "solved", "solution": grid.to_string(),
            }),
            Answer::Unsolvable => serde_json::json!({"puzzle": puzzle, "result": "unsolvable"}),
            Answer::Multiple => serde_json::json!({"puzzle": puzzle, "result": "multiple"}),
            Answer::Invalid(reason) => serde_json::json!({
                "puzzle": puzzle, "result": "invalid", "reason": reason,
            }),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Solved(grid) => write!(f, "{grid}"),
            Answer::Unsolvable => f.write_str("unsolvable"),
            Answer::Multiple => f.write_str("multiple"),
            Answer::Invalid(reason) => write!(f, "invalid: {reason}"),
        }
    }
}

/// How many answers of each kind were printed.
#[derive(Debug, Default)]
pub struct Tally {
    pub solved: usize,
    pub unsolvable: usize,
    pub multiple: usize,
    pub invalid: usize,
    /// Answers are printed as JSON objects.
    json: bool,
}

impl Tally {
    /// Prints the answer to `puzzle` and counts it.
    fn write(&mut self, out: &mut impl Write, puzzle: &str, answer: &Answer) -> io::Result<()> {
        self.count(answer);
        match answer {
            _ if self.json => writeln!(out, "{}", answer.to_json(puzzle)),
            Answer::Solved(grid) => {
                // The hot path for big inputs: 81 digits and a newline, no allocation.
                let mut line = [b'\n'; 82];
                for (slot, &v) in line.iter_mut().zip(grid.cells().iter()) {
                    *slot = b'0' + v;
                }
                out.write_all(&line)
            }
            _ => writeln!(out, "{answer}"),
        }
    }

    fn count(&mut self, answer: &Answer) {
        *match answer {
            Answer::Solved(_) => &mut self.solved,
            Answer::Unsolvable => &mut self.unsolvable,
            Answer::Multiple => &mut self.multiple,
            Answer::Invalid(_) => &mut self.invalid,
        } += 1;
    }

    pub fn all_solved(&self) -> bool {
        self.unsolvable + self.multiple + self.invalid == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn answers_name_each_outcome() {
        assert_eq!(answer(PUZZLE).to_string(), SOLUTION);
        assert_eq!(answer(&PUZZLE.replace('.', "0")).to_string(), SOLUTION);
        assert_eq!(answer(&".".repeat(81)).to_string(), "multiple");
        assert_eq!(
            answer(&PUZZLE[..80]).to_string(),
            "invalid: line has 80 characters, need 81"
        );
        // A second 5 in r1c3, next to the 5 in r1c1.
        let clash = format!("5{}", &PUZZLE[1..]).replacen('.', "5", 1);
        assert_eq!(
            answer(&clash).to_string(),
            "invalid: duplicate 5 in row 1, duplicate 5 in box 1"
        );
    }
}
