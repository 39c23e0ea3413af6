//! `sudoku-bot windows`: list capturable windows.
use std::process::ExitCode;
pub fn run() -> anyhow::Result<ExitCode> {
    Err(crate::Failure("windows is not yet available".into()).into())
}
