//! End to end with our web game (games/web/sudoku.html) in Chromium under Xvfb, in
//! several looks: the bot must play it to the end, and the page's own check must agree
//! (its title turns to "Web Sudoku - Solved" only when the grid holds the solution).
//!
//! Skipped (loudly) only when Xvfb is not installed; Chromium must be there too (CI
//! installs both with scripts/setup.sh --test).

use sudoku_bot_testkit as support;

use std::time::Duration;

use support::desktop::{self, Desktop};

/// Plays the page opened with `query` in a window of `width` x `height`, with extra
/// configuration `config` (TOML), and checks the page says solved.
fn play(desk: &mut Desktop, query: &str, width: u32, height: u32, config: &str) {
    let _turn = desktop::browser_turn();
    let window = desk.start_web_sudoku(query, width, height);
    let out = desk.bot_once("Web Sudoku", config);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Ok(dir) = std::env::var("SUDOKU_BOT_E2E_SHOTS") {
        let name = query.replace(['&', '='], "-");
        desk.screenshot(&std::path::Path::new(&dir).join(format!("web-{name}.png")));
    }
    assert!(
        out.status.success(),
        "bot failed on {query} ({:?}): {stderr}",
        out.status
    );
    let mut title = String::new();
    desk.wait_until(
        Duration::from_secs(5),
        "the page title to say solved",
        |d| {
            title = d.window_title(&window);
            title == "Web Sudoku - Solved"
        },
    );
    assert!(
        stderr.contains("the grid reads as the solution"),
        "{stderr}"
    );
}

#[test]
fn plays_the_dark_theme() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    play(&mut desk, "theme=dark&cell=40", 600, 620, "");
}

#[test]
fn plays_small_cells() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    play(&mut desk, "theme=flat&cell=24&timer=1", 500, 450, "");
}

#[test]
fn plays_with_a_number_pad_beside_the_grid_using_arrow_keys() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    play(
        &mut desk,
        "theme=shaded&cell=48&pad=right",
        760,
        700,
        "[input]\nmethod = \"keys\"\n",
    );
}

#[test]
fn plays_with_the_number_pad_using_the_profile() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let profile = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/config/profiles/web-sudoku.toml"
    ))
    .unwrap();
    play(
        &mut desk,
        "theme=shaded&cell=48&pad=right",
        760,
        700,
        &profile,
    );
}
