//! The `sudoku-bot` executable: a small front door that answers `sudoku-bot solve` itself
//! and hands every other command, unchanged, to `sudoku-bot-full` in the same folder.
//!
//! Why two executables: the full program (`src/main.rs`) links Tesseract, Leptonica,
//! PipeWire and xcb, which bring about 60 shared libraries (libcurl, GnuTLS, ICU, ...).
//! The dynamic loader maps and relocates all of them before `main` runs: about 8 ms of
//! CPU on every start, against about 1 ms for a program without them. `solve` needs
//! none of them, and it is the command scripts call in loops and pipelines. This file
//! uses only the solver and `solve`'s own mode, so the linker (which passes
//! `--as-needed`) records no dependency on those libraries here.
//!
//! The front answers only the invocations whose output is the same either way:
//! `sudoku-bot solve [PUZZLE...]` with no option among the arguments (options such as
//! `-v` or `--help` are the full program's to handle) and no log filter in `RUST_LOG`
//! (the front starts no logger; with none, `solve` logs nothing, as the full program's
//! default filter would). Everything else is `exec`ed: the full program replaces this
//! process (same process id, same arguments, same standard streams), so the bot, its
//! signals and its exit codes are as before.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use sudoku_bot::{error, modes};

/// The full program's file name; it is installed next to this one.
const FULL: &str = "sudoku-bot-full";

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    match plain_solve(&args) {
        Some(puzzles) => error::finish(modes::solve::run(&puzzles)),
        None => exec_full(&args),
    }
}

/// The puzzles of `sudoku-bot solve [PUZZLE...]` when the front may answer it itself.
fn plain_solve(args: &[OsString]) -> Option<Vec<String>> {
    if args.get(1)? != "solve" {
        return None;
    }
    let quiet = std::env::var_os("RUST_LOG").is_none_or(|v| v.is_empty() || v == "off");
    if !quiet {
        return None;
    }
    args[2..]
        .iter()
        .map(|a| {
            a.to_str()
                .filter(|a| !a.starts_with('-'))
                .map(str::to_string)
        })
        .collect()
}

/// Replaces this process with the full program; returns only when that fails.
fn exec_full(args: &[OsString]) -> ExitCode {
    let full = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(FULL)))
        .unwrap_or_else(|| PathBuf::from(FULL));
    let mut cmd = Command::new(&full);
    if let Some(arg0) = args.first() {
        cmd.arg0(arg0);
    }
    let err = cmd.args(args.iter().skip(1)).exec();
    let _ = writeln!(
        std::io::stderr(),
        "sudoku-bot: could not start {}: {err}; it is built and installed with sudoku-bot \
(`cargo build --release` builds both)",
        full.display()
    );
    ExitCode::from(1)
}
