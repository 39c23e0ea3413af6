//! `sudoku-bot read`: print the grid read from a picture.
use std::path::Path;
use std::process::ExitCode;
pub fn run(_image: &Path, _json: bool, _debug: Option<&Path>) -> anyhow::Result<ExitCode> {
    Err(crate::Failure("read is not yet available".into()).into())
}
