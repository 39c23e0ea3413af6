//! The X11 input device on its own, under Xvfb with recorder windows in the game's
//! place: a key reaches the game when nothing is wrong, and is refused (nothing sent,
//! the reason named) when another program holds the keyboard grab, has the focus, or
//! has a window inside the game under the pointer; a click under an InputOnly window of
//! another program is refused; a pointer grab of the game's own client is waited out;
//! input that would reach no program (the focus on the window manager's own window,
//! the game unmapped) is not sent and said so, as a pause; input the device did not
//! send is reported.

use sudoku_bot_testkit as support;

use std::time::Duration;

use sudoku_bot::input::{Input, InputError, Key, ScreenPoint};
use sudoku_bot::screen::{ScreenRect, WindowInfo, X11Input};
use support::recorder::{Recorder, Spec};

fn game_info(recorder: &Recorder, rect: (i16, i16, u16, u16)) -> WindowInfo {
    WindowInfo {
        id: recorder.window,
        title: "Game".into(),
        app_name: String::new(),
        pid: None,
        rect: ScreenRect {
            x: rect.0.into(),
            y: rect.1.into(),
            width: rect.2.into(),
            height: rect.3.into(),
        },
        minimized: false,
        dialog: false,
    }
}

fn spec(title: &'static str, rect: (i16, i16, u16, u16), input_only: bool) -> Spec<'static> {
    Spec {
        title,
        rect,
        override_redirect: true,
        input_only,
    }
}

fn refused(result: Result<(), InputError>, words: &str) {
    match result {
        Err(InputError::Unsafe(why)) => assert!(why.contains(words), "{why}"),
        other => panic!("expected a refusal saying {words:?}, got {other:?}"),
    }
}

fn unreachable(result: Result<(), InputError>, words: &str) {
    match result {
        Err(InputError::Unreachable(why)) => assert!(why.contains(words), "{why}"),
        other => panic!("expected input that reaches no program, {words:?}, got {other:?}"),
    }
}

/// Waits for a recorder's events to settle, then returns them.
fn settled(r: &Recorder) -> Vec<String> {
    r.sync();
    std::thread::sleep(Duration::from_millis(150));
    r.events()
}

#[test]
fn the_device_sends_only_where_the_game_gets_it() {
    let Some(desk) = support::desktop::start() else {
        return;
    };
    // The device connects to $DISPLAY; this is the only test of this binary.
    std::env::set_var("DISPLAY", &desk.display);
    let rect = (100, 100, 400, 300);
    let mut game = Recorder::open(&desk.display, spec("Game", rect, false));
    std::thread::sleep(Duration::from_millis(200));
    let mut input = X11Input::open(0).expect("the device opens");

    // Not aimed: nothing is sent.
    assert!(input.key(Key::Digit(5)).is_err());
    input.aim(Some(&game_info(&game, rect)));
    game.take_focus();
    game.sync();

    // All is well: the key and the click reach the game.
    input.key(Key::Digit(5)).expect("a key to the focused game");
    input
        .click(ScreenPoint { x: 200, y: 200 })
        .expect("a click on the game");
    let got = settled(&game);
    assert!(
        got.iter().any(|e| e.starts_with("key")) && got.iter().any(|e| e.starts_with("button 1")),
        "{got:?}"
    );
    game.clear();
    assert_eq!(
        input.user_activity().unwrap(),
        None,
        "its own input is not the user's"
    );

    // The game's own client holds the pointer grab for longer than a grab of another
    // program is waited out (Kivy and pygame games, through SDL 2, grab the pointer
    // from a press to its release; on a busy machine they see the release seconds
    // later): it is the game's, so the click waits for it and then goes through.
    game.hold_pointer_grab(Duration::from_millis(2500));
    input
        .click(ScreenPoint { x: 210, y: 200 })
        .expect("a click once the game let go of its own pointer grab");
    let got = settled(&game);
    assert!(got.iter().any(|e| e.starts_with("button 1")), "{got:?}");
    game.clear();

    // Another program grabs the keyboard: refused, the grabber gets nothing.
    let launcher = Recorder::open(&desk.display, spec("Launcher", (700, 10, 100, 50), false));
    std::thread::sleep(Duration::from_millis(100));
    launcher.grab(true, false);
    refused(input.key(Key::Digit(5)), "keyboard grab");
    refused(input.click(ScreenPoint { x: 200, y: 200 }), "keyboard grab");
    assert!(settled(&launcher).is_empty(), "{:?}", launcher.events());
    drop(launcher.close());
    game.take_focus();
    game.sync();

    // Another program's window inside the game, under the pointer: keys go there.
    let intruder = Recorder::open(&desk.display, spec("Intruder", (0, 0, 100, 100), false));
    intruder.reparent_into(game.window, 50, 50);
    refused(
        input.click(ScreenPoint { x: 170, y: 170 }),
        "inside the game's window",
    );
    input
        .click(ScreenPoint { x: 400, y: 350 })
        .expect("a click beside the intruder");
    assert!(input.user_activity().unwrap().is_none());
    drop(intruder.close());

    // An InputOnly window of another program over the game takes the click.
    let catcher = Recorder::open(&desk.display, spec("Catcher", (150, 150, 100, 100), true));
    std::thread::sleep(Duration::from_millis(100));
    refused(input.click(ScreenPoint { x: 200, y: 200 }), "Catcher");
    assert!(settled(&catcher).is_empty(), "{:?}", catcher.events());
    drop(catcher.close());

    // Another program takes the focus: refused and named.
    let thief = Recorder::open(&desk.display, spec("Thief", (700, 10, 100, 50), false));
    std::thread::sleep(Duration::from_millis(100));
    thief.take_focus();
    thief.sync();
    refused(input.key(Key::Digit(5)), "Thief");
    assert!(settled(&thief).is_empty(), "{:?}", thief.events());
    drop(thief.close());
    game.take_focus();
    game.sync();
    let _ = input.user_activity();

    // The window manager holds the focus (as openbox does between a window unmapped
    // and the next one focused): a key would reach no program. Nothing is sent, and
    // the device says so as a pause, not as another program's doing.
    game.clear();
    game.give_focus_to_window_manager();
    unreachable(input.key(Key::Digit(5)), "focus is on no window");
    assert!(settled(&game).is_empty(), "{:?}", game.events());
    game.take_focus();
    game.sync();

    // The game taken off the screen: the window behind would get the click and the
    // key. Nothing is sent; a pause too.
    let behind = Recorder::open(&desk.display, spec("Behind", (0, 0, 1280, 1024), false));
    behind.lower();
    std::thread::sleep(Duration::from_millis(100));
    game.set_mapped(false);
    unreachable(
        input.click(ScreenPoint { x: 200, y: 200 }),
        "not on the screen",
    );
    unreachable(input.key(Key::Digit(5)), "not on the screen");
    assert!(settled(&behind).is_empty(), "{:?}", behind.events());
    // The control: the same click with the game back reaches it.
    game.set_mapped(true);
    game.take_focus();
    game.sync();
    input
        .click(ScreenPoint { x: 200, y: 200 })
        .expect("a click on the game back on the screen");
    assert!(
        settled(&game).iter().any(|e| e.starts_with("button 1")),
        "{:?}",
        game.events()
    );
    assert!(behind.close().is_empty());
    game.clear();
    let _ = input.user_activity();

    // A key through XTest from another program is the user's, not the bot's.
    desk.run("xdotool", &["key", "x"]);
    match input.key(Key::Digit(5)) {
        Err(InputError::Interfered(what)) => assert!(what.contains("keycode"), "{what}"),
        other => panic!("the user's key was not noticed: {other:?}"),
    }
    assert!(
        settled(&game).iter().all(|e| e != "key 14"),
        "the device typed after the user's key: {:?}",
        game.events()
    );
}
