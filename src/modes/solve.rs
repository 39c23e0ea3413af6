//! `sudoku-bot solve`: one answer line a puzzle.
use std::process::ExitCode;
pub fn run(_puzzles: &[String]) -> anyhow::Result<ExitCode> {
    Err(crate::Failure("solve is not yet available".into()).into())
}
