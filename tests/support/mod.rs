//! Shared helpers of the bot's tests: a simulated game ([`sim`]) and a virtual desktop
//! with real games ([`desktop`]), and a headless GNOME Wayland one ([`wayland`]).

pub mod attacks;
pub mod desktop;
pub mod recorder;
pub mod scenes;
pub mod sim;
pub mod wayland;
pub mod zoo;

use std::path::PathBuf;

/// The repository's top folder (fixtures, games, config).
pub fn repository() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (picture, grid) of each line of `fixtures/<set>/MANIFEST` (`FILE GRID  # comment`).
pub fn labelled(set: &str) -> Vec<(PathBuf, String)> {
    let dir = repository().join("fixtures").join(set);
    let text = std::fs::read_to_string(dir.join("MANIFEST")).expect("a MANIFEST");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let file = parts.next().unwrap();
            (dir.join(file), parts.next().unwrap().to_string())
        })
        .collect()
}

/// The `sudoku-bot` executable that `cargo test` built beside the test binary running
/// (`target/PROFILE/deps/TEST` -> `target/PROFILE/sudoku-bot`).
pub fn bot_executable() -> PathBuf {
    let test = std::env::current_exe().expect("the test binary's path");
    let profile = test
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary lies in target/PROFILE/deps");
    profile.join("sudoku-bot")
}

/// Says on the terminal that a test was skipped for `why`. Written to the standard
/// error stream itself, not through `eprintln!`, which the test harness captures and
/// shows only for failing tests: a skip that passes would otherwise go unseen.
pub fn say_skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "\n*** SKIPPED: {why} ***\n");
}
