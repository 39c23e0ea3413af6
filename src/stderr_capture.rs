//! Holding back what a C library prints on the process's stderr (fd 2), so that the
//! user reads the bot's one sentence and not the library's lines around it.

use std::io::Read;
use std::sync::Mutex;

/// One redirection at a time: fd 2 is the whole process's.
static HELD: Mutex<()> = Mutex::new(());

/// Runs `f` with fd 2 sent to a buffer and returns its result with what was written
/// there. When fd 2 cannot be redirected, `f` runs anyway and nothing is returned.
pub fn held<T>(f: impl FnOnce() -> T) -> (T, String) {
    let _one = HELD.lock().unwrap_or_else(|e| e.into_inner());
    let Ok(mut redirect) = gag::BufferRedirect::stderr() else {
        return (f(), String::new());
    };
    let value = f();
    let mut said = String::new();
    let _ = redirect.read_to_string(&mut said);
    (value, said)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn what_is_written_on_fd_2_is_returned_not_shown() {
        let (n, said) = held(|| {
            // Written through the file descriptor, as a C library does.
            let mut fd2 = std::io::stderr();
            let _ = fd2.write_all(b"Error opening data file\n");
            let _ = fd2.flush();
            7
        });
        assert_eq!(n, 7);
        assert_eq!(said, "Error opening data file\n");
    }
}
