//! Shared helpers of the bot's tests: a simulated game ([`sim`]) and a virtual desktop
//! with real games ([`desktop`]), and a headless GNOME Wayland one ([`wayland`]).
#![allow(dead_code)]

pub mod desktop;
pub mod recorder;
pub mod sim;
pub mod wayland;

/// Says on the terminal that a test was skipped for `why`. Written to the standard
/// error stream itself, not through `eprintln!`, which the test harness captures and
/// shows only for failing tests: a skip that passes would otherwise go unseen.
pub fn say_skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "\n*** SKIPPED: {why} ***\n");
}
