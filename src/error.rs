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
        Err(err) => report(&err),
    }
}

/// As [`finish`], for `--json`: standard output carries only JSON, so an error is also
/// printed there, as `{"error": SENTENCE, "exit_code": N}` on one line.
pub fn finish_json(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Err(err) if !is_broken_pipe(&err) => {
            let doc = serde_json::json!({
                "error": one_line(&err),
                "exit_code": if err.chain().any(|e| e.is::<UsageError>()) { 2 } else { 1 },
            });
            let _ = writeln!(std::io::stdout(), "{doc}");
            report(&err)
        }
        other => finish(other),
    }
}

/// Reports `err` on stderr as one sentence and says its exit code.
pub fn report(err: &anyhow::Error) -> ExitCode {
    // Waits for a library start that holds fd 2 back (Tesseract on its thread), so that
    // the sentence reaches the user and not the held buffer.
    crate::stderr_capture::unheld(|| {
        let _ = writeln!(std::io::stderr(), "sudoku-bot: {}", one_line(err));
    });
    exit_code(err)
}

/// Whether writing to a closed pipe is what failed (directly, or inside a JSON writer).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            .or_else(|| e.downcast_ref::<serde_json::Error>()?.io_error_kind());
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}
