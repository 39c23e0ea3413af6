//! End to end, under Xvfb with the real GNOME Sudoku: the bot's input never reaches
//! anything but the game. Windows that record every key and button press they get sit
//! beside, behind and over the game, and must get none, while the bot plays and the
//! desktop misbehaves: another window grabs the focus, a notification bubble pops up
//! over the grid, the game window is unmapped, the screen saver comes on, the user
//! clicks without moving the mouse. A configuration with NaN in it never starts.
//! Faults during play: the game killed, the X server gone.
//!
//! Each test is a check that fails when the check in the bot is removed (the closing
//! note of the change that added them shows each one failing that way).

use sudoku_bot_testkit as support;

use std::time::Duration;

use support::desktop::{self, Desktop};
use support::recorder::{Recorder, Spec};

/// Slow enough (about 6 s for an Easy puzzle) to act in the middle of it.
const SLOW: &str = "[delays]\nafter_click = 60\nafter_key = 60\nshorten = false\n";

/// Runs `sudoku-bot --window Sudoku --once -v` with `config`; once it has read the
/// puzzle and played for `after`, runs `act` on the desktop. Returns the exit code and
/// the bot's stderr.
fn play_and(
    desk: &mut Desktop,
    config: &str,
    after: Duration,
    act: impl FnOnce(&mut Desktop),
) -> (Option<i32>, String) {
    let bot = desk.start_bot(&["--window", "Sudoku", "--once"], config);
    if bot.read_puzzle(Duration::from_secs(30)) {
        std::thread::sleep(after);
        act(desk);
    }
    bot.finish(Duration::from_secs(120))
}

/// A window behind everything, over the whole screen, that records what it gets:
/// whatever misses the game lands here.
fn recorder_behind_everything(desk: &Desktop) -> Recorder {
    let behind = Recorder::open(
        &desk.display,
        Spec {
            title: "Desktop behind",
            rect: (0, 0, 1280, 1024),
            override_redirect: true,
            input_only: false,
        },
    );
    behind.lower();
    behind
}

/// True once GNOME Sudoku has opened its completion dialog (within a few seconds).
fn solved(desk: &mut Desktop, window: &str) -> bool {
    for _ in 0..50 {
        if !desk.dialogs_of(window).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// The screen point of cell (row, col), 0-based, in GNOME Sudoku's window (its grid
/// sits at window (82, 78) with 64-pixel cells at the default window size).
fn gnome_cell(desk: &Desktop, window: &str, row: i32, col: i32) -> (i16, i16) {
    let (x, y, _, _) = desk.geometry(window);
    ((x + 82 + 64 * col) as i16, (y + 78 + 64 * row) as i16)
}

#[test]
fn a_window_that_grabs_the_focus_mid_play_gets_no_key() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    // Beside the game, not over it: only the focus tells where keys go.
    let mut thief = Recorder::open(
        &desk.display,
        Spec {
            title: "Focus thief",
            rect: (1030, 20, 220, 120),
            override_redirect: true,
            input_only: false,
        },
    );
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(1500), |_| {
        // It takes the focus back every 5 ms for 3 s: a click on the game does not
        // keep it away.
        thief.keep_taking_focus(Duration::from_secs(3));
    });
    let got = thief.close();
    assert!(
        got.is_empty(),
        "the focus thief received {got:?}; bot said: {stderr}"
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("keyboard focus is on") && stderr.contains("Focus thief"),
        "{stderr}"
    );
    assert!(!solved(&mut desk, &window), "the game was finished anyway");
}

#[test]
fn a_notification_over_the_grid_is_never_clicked_and_the_game_is_still_solved() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    // A bubble over the bottom-left of the grid (rows 8-9, columns 1-4), where the bot
    // has not played yet, for 1.5 s: never listed by the window manager.
    let (x, y) = gnome_cell(&desk, &window, 7, 0);
    let mut bubble = None;
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(800), |desk| {
        bubble = Some(Recorder::open(
            &desk.display,
            Spec {
                title: "Notification",
                rect: (x + 10, y + 10, 240, 110),
                override_redirect: true,
                input_only: false,
            },
        ));
        std::thread::sleep(Duration::from_millis(1500));
        let got = bubble.take().unwrap().close();
        assert!(got.is_empty(), "clicked or typed into the bubble: {got:?}");
    });
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("Notification") && stderr.contains("covers"),
        "{stderr}"
    );
    assert!(solved(&mut desk, &window), "not solved: {stderr}");
}

#[test]
fn an_unmapped_game_gets_no_input_and_the_window_behind_gets_nothing() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    let behind = recorder_behind_everything(&desk);
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(1500), |desk| {
        desk.run("xdotool", &["windowunmap", &window]);
        std::thread::sleep(Duration::from_millis(1500));
        // The user brings it back (as a return to its workspace does).
        desk.run("xdotool", &["windowmap", "--sync", &window]);
        desk.run("xdotool", &["windowactivate", &window]);
    });
    let got = behind.close();
    assert!(
        got.is_empty(),
        "input reached the window behind: {got:?}; {stderr}"
    );
    assert!(stderr.contains("not on the screen"), "{stderr}");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(solved(&mut desk, &window), "not solved: {stderr}");
}

#[test]
fn no_input_while_the_screen_saver_is_on() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    let mut still_on = false;
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(1200), |desk| {
        desk.run("xset", &["s", "activate"]);
        std::thread::sleep(Duration::from_millis(1500));
        // Any input event ends the screen saver: still on means the bot sent nothing.
        still_on = screen_saver_on(&desk.display);
        desk.run("xset", &["s", "reset"]);
    });
    assert!(still_on, "the bot's input ended the screen saver; {stderr}");
    assert!(stderr.contains("screen saver is on"), "{stderr}");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(solved(&mut desk, &window), "not solved: {stderr}");
}

fn screen_saver_on(display: &str) -> bool {
    use x11rb::connection::Connection;
    use x11rb::protocol::screensaver::{ConnectionExt, State};
    let (conn, screen) = x11rb::connect(Some(display)).unwrap();
    let root = conn.setup().roots[screen].root;
    let info = conn.screensaver_query_info(root).unwrap().reply().unwrap();
    info.state == u8::from(State::ON)
}

#[test]
fn a_click_by_the_user_without_moving_the_mouse_stops_the_bot() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(1500), |desk| {
        // Where the pointer is: on a cell the bot just played.
        desk.run("xdotool", &["click", "1"]);
    });
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("mouse button (1) was pressed") && stderr.contains("took over"),
        "{stderr}"
    );
    assert!(
        !solved(&mut desk, &window),
        "the bot finished the game anyway"
    );
}

#[test]
fn nan_in_the_configuration_is_refused_before_anything_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nan.toml");
    std::fs::write(&path, "[grid]\norigin = [80, 77]\ncell_size = [nan, nan]\n").unwrap();
    // No display at all: the configuration is checked first.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args(["--window", "Sudoku", "--once", "--config"])
        .arg(&path)
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("nan.toml line 3") && stderr.contains("grid.cell_size"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one sentence: {stderr}");
}

// ---- Faults during play ---------------------------------------------------------------

#[test]
fn the_game_killed_mid_play_stops_the_bot_and_the_window_behind_gets_nothing() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    desk.start_gnome_sudoku_easy();
    let behind = recorder_behind_everything(&desk);
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(1500), |desk| {
        // The game is the newest process of the desktop.
        desk.kill_newest();
    });
    eprintln!("{stderr}");
    let got = behind.close();
    assert!(
        got.is_empty(),
        "input reached the window behind: {got:?}; {stderr}"
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("sudoku-bot: ") && last.contains("closed"),
        "the last line does not say the window closed: {stderr}"
    );
}

#[test]
fn the_x_server_dying_mid_play_gives_one_clear_error_and_no_panic() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    desk.start_gnome_sudoku_easy();
    let (code, stderr) = play_and(&mut desk, SLOW, Duration::from_millis(1500), |desk| {
        desk.kill_display();
    });
    eprintln!("{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(matches!(code, Some(c) if c != 0), "exit {code:?}: {stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("sudoku-bot: "))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    // Whichever request notices first (a capture, a window query, a key), the one
    // line names the cause: the server is gone, not the window.
    assert!(
        errors[0].contains("lost the connection to the X server"),
        "{stderr}"
    );
}

#[test]
fn windows_of_one_pixel_or_partly_off_the_screen_are_no_grid_and_get_no_input() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    // Each window stays open to the end: a closed one's client slot, and with it its
    // window id, is taken by the next (the X server reuses both), and openbox, still
    // unmanaging the old window, then ignored the new one's map or put it back in place.
    let mut windows = Vec::new();
    for (title, size, off_screen) in [("Tiny Sudoku", 1, false), ("Offscreen Sudoku", 400, true)] {
        let window = Recorder::open(
            &desk.display,
            Spec {
                title,
                rect: (10, 10, size, size),
                override_redirect: false,
                input_only: false,
            },
        );
        let id = window.window.to_string();
        desk.wait_until(Duration::from_secs(10), "the window managed", |d| {
            d.is_managed(&id)
        });
        if off_screen {
            // Up and left of the screen's corner, as on a monitor left of the first.
            // openbox may still be placing the new window and put it back: again then.
            let (mut x, mut y) = (0, 0);
            for _ in 0..10 {
                desk.run(
                    "xdotool",
                    &["windowmove", "--sync", &id, "--", "-300", "-250"],
                );
                (x, y, _, _) = desk.geometry(&id);
                if x < 0 || y < 0 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            assert!(
                x < 0 || y < 0,
                "the window did not move off the screen: {x},{y}"
            );
        }
        let out = desk.bot_once(title, "[watch]\nonce_timeout = 1500\n");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{title}: {stderr}");
        assert!(!stderr.contains("panicked"), "{title}: {stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("sudoku-bot: "))
            .collect();
        assert_eq!(errors.len(), 1, "{title}: {stderr}");
        // Too small to be listed, or not on the screen to be captured.
        let why = if off_screen {
            "partly off the screen"
        } else {
            "no window matches"
        };
        assert!(errors[0].contains(why), "{title}: {stderr}");
        window.sync();
        std::thread::sleep(Duration::from_millis(50));
        let got = window.events();
        assert!(got.is_empty(), "{title} got input: {got:?}");
        windows.push(window);
    }
}
