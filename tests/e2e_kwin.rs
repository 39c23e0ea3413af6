//! End to end on KDE Plasma's compositor, with no screen: KWin on a virtual framebuffer
//! with its Xwayland in a private D-Bus session, and GNOME Sudoku as a native Wayland
//! client or as an X11 client under Xwayland. sudoku-bot is vouched for the way Plasma
//! does it (a `.desktop` file whose Exec is its path, listing KWin's restricted
//! interfaces); the built binary picks its kwin backend from the session bus, takes
//! pictures through ScreenShot2 and plays through KWin's fake input. The test judges
//! the game by KWin's own screenshots (ScreenShot2, the test vouched for likewise):
//! GNOME Sudoku's "Well done" after the bot (the positive control), and a dry run,
//! which must leave the puzzle unsolved (the negative control). Without its `.desktop`
//! file, KWin refuses the bot, which says so in one line. A hand on the mouse (a second
//! fake-input client moving the pointer) stops the bot before the game is solved.
//!
//! Skipped (loudly) when kwin_wayland or Xwayland is not installed and CI is not set;
//! on CI it must run.

use sudoku_bot_testkit as support;

use support::wayland;

/// GNOME Sudoku's own Easy puzzles (scripts/fixtures/gnome-puzzles.txt).
const EASY: [&str; 2] = [
    "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2",
    "1....5.898..21......579.4..4.....97..67...53..19.....8..3.598......62..794.8....5",
];

const BACKEND: &str = "backend kwin (KWin is on the session bus)";
/// An X11 game under the compositor's Xwayland is played through the X11 backend.
const XWAYLAND: &str =
    "is an X11 window under the compositor's Xwayland: playing it through the X11 backend";
const FOUND: &str = "matched by exact title in KWin's window list";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn plays_native_gnome_sudoku_until_it_says_solved() {
    let Some(mut desk) = wayland::start_kwin() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);
    desk.play_until_solved(BACKEND, FOUND, "(Wayland) under KWin", "kwin-native-after");
}

#[test]
fn plays_gnome_sudoku_under_xwayland_until_it_says_solved() {
    let Some(mut desk) = wayland::start_kwin() else {
        return;
    };
    desk.start_gnome_sudoku_under_xwayland(EASY[1]);
    desk.play_until_solved(
        BACKEND,
        XWAYLAND,
        "(X11 under Xwayland) under KWin",
        "kwin-xwayland-after",
    );
}

/// The negative control: a dry run prints its moves, types nothing, and the judge sees
/// no "Well done" and the puzzle as it was, for both kinds of client. `windows` lists
/// the game where KWin has it. And without the `.desktop` file, KWin refuses the bot.
#[test]
fn a_dry_run_leaves_the_puzzle_unsolved_and_kwin_refuses_a_bot_it_does_not_know() {
    for xwayland in [false, true] {
        let Some(mut desk) = wayland::start_kwin() else {
            return;
        };
        desk.start_gnome_sudoku_on(EASY[1], xwayland);
        let out = desk.bot(&["windows"]);
        let listed = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            listed.lines().any(|l| l.starts_with("Sudoku\t")),
            "{listed}"
        );
        desk.assert_dry_run_leaves(EASY[1], &format!("xwayland: {xwayland}"));

        if !xwayland {
            let vouching = desk
                .home()
                .join(".local/share/applications/sudoku-bot.desktop");
            std::fs::remove_file(&vouching).expect("remove the .desktop file");
            let out = desk.bot(&["--window", "Sudoku", "--once"]);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains("KWin") && stderr.contains("sudoku-bot.desktop"),
                "{stderr}"
            );
        }
    }
}

/// Safety on KWin: the user's pointer is seen (KWin's script tells the bot where it
/// is), so a hand on the mouse while the bot plays stops it, exit 1, and the game is
/// not solved. The "user" is the test, moving the pointer near the screen's corner
/// through KWin's fake input on a connection of its own. The positive control is the
/// solved runs above, where nobody touches the mouse.
#[test]
fn a_hand_on_the_mouse_stops_the_bot() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use sudoku_bot::input::ScreenPoint;

    let Some(mut desk) = wayland::start_kwin() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);
    let done = Arc::new(AtomicBool::new(false));
    let user = {
        let done = done.clone();
        let display = desk.wayland_display();
        std::thread::spawn(move || {
            std::env::set_var("WAYLAND_DISPLAY", display);
            let mut hand = sudoku_bot::wayland::kwin::KwinInput::open_alone()
                .expect("the test's own fake input");
            let mut i = 0;
            while !done.load(Ordering::Relaxed) {
                hand.move_to(ScreenPoint { x: 5 + i % 2, y: 5 })
                    .expect("move the pointer");
                i += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    };
    let out = desk.bot(&["--window", "Sudoku", "--once"]);
    done.store(true, Ordering::Relaxed);
    user.join().expect("the test's hand");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the mouse moved") && stderr.contains("took over"),
        "{stderr}"
    );
    let path = desk.screenshot_to("kwin-hand-on-mouse.png");
    assert!(
        !desk.words(&path).contains("Well done"),
        "the game says solved though the user moved the mouse"
    );
}
