//! Holding back what a C library prints on the process's stderr (fd 2), so that the
//! user reads the bot's one sentence and not the library's lines around it.
//!
//! fd 2 is the whole process's: while it is held, a line another thread of the bot
//! writes (the watch's "watching window ..." while Tesseract starts on a thread of its
//! own) lands in the same buffer. So what was held is given back to stderr when the
//! library call succeeds; only a failure's lines are kept from the user, who reads the
//! bot's sentence about the failure instead, written through [`unheld`] so that it
//! waits for the hold to end.

use std::io::{Read, Write};
use std::sync::Mutex;

/// One redirection at a time: fd 2 is the whole process's.
static HELD: Mutex<()> = Mutex::new(());

/// Runs `f` with fd 2 sent to a buffer. When `f` succeeds, what was written there is
/// written back to stderr and the returned text is empty; when it fails, the text is
/// returned and not shown. When fd 2 cannot be redirected, `f` runs as it is.
pub fn held<T, E>(f: impl FnOnce() -> Result<T, E>) -> (Result<T, E>, String) {
    held_into(f, &mut std::io::stderr())
}

/// Runs `f` when fd 2 is not held (waiting for a hold on another thread to end): for
/// the lines that must reach the user whatever the held call does, such as the one
/// sentence of an error.
pub fn unheld<T>(f: impl FnOnce() -> T) -> T {
    let _one = HELD.lock().unwrap_or_else(|e| e.into_inner());
    f()
}

fn held_into<T, E>(
    f: impl FnOnce() -> Result<T, E>,
    stderr: &mut dyn Write,
) -> (Result<T, E>, String) {
    let _one = HELD.lock().unwrap_or_else(|e| e.into_inner());
    let Ok(mut redirect) = gag::BufferRedirect::stderr() else {
        return (f(), String::new());
    };
    let value = f();
    let mut said = String::new();
    let _ = redirect.read_to_string(&mut said);
    drop(redirect);
    if value.is_ok() {
        let _ = stderr.write_all(said.as_bytes());
        let _ = stderr.flush();
        said.clear();
    }
    (value, said)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_on_fd_2(line: &str) {
        // Written through the file descriptor, as a C library (or another thread) does.
        let mut fd2 = std::io::stderr();
        let _ = fd2.write_all(line.as_bytes());
        let _ = fd2.flush();
    }

    #[test]
    fn a_failures_lines_on_fd_2_are_returned_not_shown() {
        let mut shown = Vec::new();
        let (result, said) = held_into(
            || {
                write_on_fd_2("Error opening data file\n");
                Err::<(), _>(7)
            },
            &mut shown,
        );
        assert_eq!(result, Err(7));
        // (Other tests of this process may write on fd 2 meanwhile: contains, not equals.)
        assert!(said.contains("Error opening data file\n"), "{said:?}");
        assert!(shown.is_empty());
    }

    #[test]
    fn lines_written_while_a_call_succeeds_still_reach_stderr() {
        let mut shown = Vec::new();
        let (result, said) = held_into(
            || {
                write_on_fd_2("watching window \"Sudoku\" on x11\n");
                Ok::<_, ()>(7)
            },
            &mut shown,
        );
        assert_eq!(result, Ok(7));
        assert_eq!(said, "");
        let shown = String::from_utf8(shown).unwrap();
        assert!(
            shown.contains("watching window \"Sudoku\" on x11\n"),
            "{shown:?}"
        );
    }
}
