//! End to end on sway (wlroots), with no screen: headless sway with its Xwayland in a
//! private D-Bus session, and GNOME Sudoku as a native Wayland client or as an X11
//! client under Xwayland. The built binary picks its wlroots backend from the session
//! (sway sets no XDG_CURRENT_DESKTOP: its IPC socket says it), copies the window
//! through wlr-screencopy and plays through the virtual pointer and keyboard; the test
//! judges the game by the compositor's own screenshots (grim): GNOME Sudoku's
//! "Well done" dialog after the bot (the positive control), and a dry run, which must
//! leave the puzzle unsolved and the dialog away (the negative control: the judge can
//! say no).
//!
//! Skipped (loudly) when sway, grim, Xwayland or xhost is not installed and CI is not
//! set; on CI it must run.

use sudoku_bot_testkit as support;

use support::wayland;

/// GNOME Sudoku's own Easy puzzles (scripts/fixtures/gnome-puzzles.txt).
const EASY: [&str; 2] = [
    "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2",
    "1....5.898..21......579.4..4.....97..67...53..19.....8..3.598......62..794.8....5",
];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const BACKEND: &str = "backend wlroots (sway's IPC socket (SWAYSOCK) is there)";
/// An X11 game under the compositor's Xwayland is played through the X11 backend.
const XWAYLAND: &str =
    "is an X11 window under the compositor's Xwayland: playing it through the X11 backend";
const FOUND: &str = "matched by exact title in sway's tree";

#[test]
fn plays_native_gnome_sudoku_until_it_says_solved() {
    let Some(mut desk) = wayland::start_sway() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);
    desk.play_until_solved(
        BACKEND,
        FOUND,
        "(Wayland) under headless sway",
        "sway-native-after",
    );
}

#[test]
fn plays_gnome_sudoku_under_xwayland_until_it_says_solved() {
    let Some(mut desk) = wayland::start_sway() else {
        return;
    };
    desk.start_gnome_sudoku_under_xwayland(EASY[1]);
    desk.play_until_solved(
        BACKEND,
        XWAYLAND,
        "(X11 under Xwayland) under headless sway",
        "sway-xwayland-after",
    );
}

/// The negative control: a dry run prints its moves, types nothing, and the judge sees
/// no "Well done" and the puzzle as it was, for both kinds of client.
#[test]
fn a_dry_run_leaves_the_puzzle_unsolved_natively_and_under_xwayland() {
    for xwayland in [false, true] {
        let Some(mut desk) = wayland::start_sway() else {
            return;
        };
        desk.start_gnome_sudoku_on(EASY[1], xwayland);
        desk.assert_dry_run_leaves(EASY[1], &format!("xwayland: {xwayland}"));
    }
}

/// `windows` lists sway's windows, Wayland and X11 alike, with their places; two games
/// that match equally are one too many for `--window`.
#[test]
fn windows_lists_native_and_xwayland_games_and_the_bot_refuses_to_guess() {
    let Some(mut desk) = wayland::start_sway() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);
    let listed = |desk: &wayland::WaylandDesktop| {
        let out = desk.bot(&["windows"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    // One tiled window fills the 1280x1024 output.
    assert_eq!(listed(&desk), "Sudoku\tgnome-sudoku\t0,0\t1280x1024\n");
    // A second GNOME Sudoku, on a bus of its own (on the desktop's, it would only wake
    // the first one up) and with no saved game (it shows its difficulty chooser), under
    // Xwayland.
    let mut second = desk.xwayland_command("dbus-run-session");
    second
        .args(["--", "/usr/games/gnome-sudoku"])
        .env("HOME", desk.dir.path().join("home2"));
    desk.spawn("gnome-sudoku-x11", second);
    let mut both = String::new();
    desk.wait_until(std::time::Duration::from_secs(30), "a second window", |d| {
        both = listed(d);
        both.lines().count() == 2
    });
    // Tiled side by side: the X11 one has its WM_CLASS, the Wayland one its app id.
    assert!(
        both.contains("Sudoku\tgnome-sudoku\t0,0\t640x1024\n")
            && both.contains("\tGnome-sudoku\t640,0\t640x1024\n"),
        "{both}"
    );
    // The title "Sudoku" matches only the first (the second shows its difficulty
    // chooser); by application name, WM_CLASS and app id differ only in case: both.
    let out = desk.bot(&["--window", "gnome-sudoku", "--once", "--dry-run"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("2 windows match \"gnome-sudoku\""),
        "{stderr}"
    );
    let out = desk.bot(&["--window", "Sudoku", "--once", "--dry-run", "-v"]);
    let stderr = text(&out.stderr);
    assert!(
        out.status.success()
            && stderr.contains("playing window \"Sudoku\" (gnome-sudoku, 640x1024 at 0,0)"),
        "{stderr}"
    );
}
