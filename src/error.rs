//! The two kinds of failure the command line reports: a job that could not be done
//! (exit 1) and bad usage or configuration (exit 2). Everything else is context on top.

use std::io::Write;
use std::process::ExitCode;

/// Bad usage or bad configuration: the user must change the command or the config file.
/// Exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// The job could not be done (no grid found, unsolvable, window not found, verification
/// failed). Exit code 1. Any error that is not a [`UsageError`] counts as this too.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Failure(pub String);

/// The exit code for an error: 2 when a [`UsageError`] is anywhere in its chain, else 1.
pub fn exit_code(err: &anyhow::Error) -> ExitCode {
    if err.chain().any(|e| e.is::<UsageError>()) {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

/// The one-line sentence for stderr: the context chain joined with ": ", with line
/// breaks folded so the message stays on one line.
pub fn one_line(err: &anyhow::Error) -> String {
    format!("{err:#}").replace('\n', " ")
}

/// The exit code for a mode's result, its error (if any) reported once on stderr as one
/// sentence. A closed output pipe (`sudoku-bot solve ... | head`) ends quietly with
/// success: the reader has what it wanted.
pub fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "sudoku-bot: {}", one_line(&err));
            exit_code(&err)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
