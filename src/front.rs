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
//! The full program is looked for next to this file, then on `PATH`, then in the
//! install prefix ([`full_candidates`]), so a lone copy of `sudoku-bot` works as long
//! as `sudoku-bot-full` is installed somewhere a user would put it.
//!
//! The front answers only the invocations whose output is the same either way:
//! `sudoku-bot solve [PUZZLE...]` with no option among the arguments (options such as
//! `-v` or `--help` are the full program's to handle) and no log filter in `RUST_LOG`
//! (the front starts no logger; with none, `solve` logs nothing, as the full program's
//! default filter would). Everything else is `exec`ed: the full program replaces this
//! process (same process id, same arguments, same standard streams), so the bot, its
//! signals and its exit codes are as before.
//!
//! The full program gets `OMP_THREAD_LIMIT=1` unless the user set it: Tesseract's LSTM
//! asks OpenMP for 4 threads on every line it reads, and on a small line (a row of
//! digits) starting and waking them costs more than the reading. libgomp reads the
//! variable once, as the program loads, so it can only be set here, before the `exec`.
//! One `read` of a 1280x1024 screenshot read its line of digits in 12-15 ms with it
//! and 75-105 ms without (2 cores), with the same digits.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use sudoku_bot::{error, modes};

/// The full program's file name; it is installed next to this one.
const FULL: &str = "sudoku-bot-full";

/// libgomp's cap on threads, which Tesseract's own requests cannot exceed.
const OMP_THREAD_LIMIT: &str = "OMP_THREAD_LIMIT";

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
    let candidates = full_candidates();
    let Some(full) = candidates.iter().find(|p| p.is_file()) else {
        let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(
            std::io::stderr(),
            "sudoku-bot: cannot find {FULL}, the other half of sudoku-bot (looked in {}); \
install both, e.g. with `cargo install --path .` or the .deb",
            looked.join(", ")
        );
        return ExitCode::from(1);
    };
    let mut cmd = Command::new(full);
    if let Some(arg0) = args.first() {
        cmd.arg0(arg0);
    }
    if std::env::var_os(OMP_THREAD_LIMIT).is_none() {
        cmd.env(OMP_THREAD_LIMIT, "1");
    }
    let err = cmd.args(args.iter().skip(1)).exec();
    let _ = writeln!(
        std::io::stderr(),
        "sudoku-bot: could not start {}: {err}",
        full.display()
    );
    ExitCode::from(1)
}

/// Where the full program may be, in the order tried: next to this executable (after
/// symlinks are followed, so a link in ~/bin to a build folder works), then in each
/// folder of `PATH`, then in the install prefix this front was built for
/// (`$SUDOKU_BOT_PREFIX/bin` at build time, default /usr/local), then /usr/bin and
/// /usr/lib/sudoku-bot (the .deb).
fn full_candidates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.canonicalize().ok().or(Some(exe)))
        .and_then(|exe| exe.parent().map(PathBuf::from))
    {
        dirs.push(dir);
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path).filter(|d| d.is_absolute()));
    }
    let prefix = option_env!("SUDOKU_BOT_PREFIX").unwrap_or("/usr/local");
    dirs.push(PathBuf::from(prefix).join("bin"));
    dirs.push(PathBuf::from("/usr/bin"));
    dirs.push(PathBuf::from("/usr/lib/sudoku-bot"));
    let mut seen = Vec::new();
    for dir in dirs {
        let full = dir.join(FULL);
        if !seen.contains(&full) {
            seen.push(full);
        }
    }
    seen
}
