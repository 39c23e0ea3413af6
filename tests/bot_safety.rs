//! The watch loop's safety against the simulated game: the user at the mouse or keyboard,
//! windows over the grid or the pad, a window that takes the focus, a moved, minimised,
//! unmapped or locked window, the stop flag, and captures that fail.

use sudoku_bot_testkit as support;

use std::sync::atomic::Ordering;

use sudoku_bot::bot::{BotError, Outcome, Step};
use sudoku_bot::config::{CellPlacement, InputMethod};
use sudoku_bot::input::ScreenPoint;
use sudoku_bot::Grid;
use support::scenes::*;
use support::sim::{self};

#[test]
fn user_moving_the_mouse_stops_the_bot_at_once() {
    let (game, dir) = setup();
    game.borrow_mut().user_moves_mouse_after = Some(3);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::Interfered(_)), "{err}");
    assert!(err.to_string().contains("the mouse moved"), "{err}");
    // The third move finished (its digit typed); nothing after it.
    assert_eq!(game.borrow().clicks().len(), 3);
    assert_eq!(game.borrow().digits().len(), 3);
}

#[test]
fn user_pressing_a_key_stops_the_bot() {
    let (game, dir) = setup();
    game.borrow_mut().user_presses_key_after = Some(5);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(err.to_string().contains("a key was pressed"), "{err}");
    assert_eq!(game.borrow().digits().len(), 5);
}

#[test]
fn a_window_over_the_grid_makes_the_bot_wait_without_typing() {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        let over = sim::other_window(77, "Save changes?", g.window);
        g.above.push((over, usize::MAX));
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    for _ in 0..3 {
        let step = bot.step().unwrap();
        assert!(
            matches!(&step, Step::Wait(why) if why.contains("covers the grid")),
            "{step:?}"
        );
    }
    assert!(game.borrow().events.is_empty());
    // Once the dialog is gone the bot plays.
    game.borrow_mut().above.clear();
    assert!(matches!(
        bot.step().unwrap(),
        Step::Done(Outcome::Solved { .. })
    ));
}

#[test]
fn a_window_that_pops_up_mid_game_pauses_typing_until_it_goes() {
    let (game, dir) = setup();
    game.borrow_mut().covered_after = Some((10, 3));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }));
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    // Nothing was sent while the window was over the grid (not even to cells it left
    // free), nothing went to that window, and no cell was typed twice: the pause did
    // not lose or repeat moves.
    assert_eq!(
        g.input_while_covered, 0,
        "typed while a window covered the grid"
    );
    assert!(
        g.strays().is_empty(),
        "input reached the other window: {:?}",
        g.strays()
    );
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len());
}

#[test]
fn minimised_window_is_waited_for() {
    let (game, dir) = setup();
    game.borrow_mut().minimized = true;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let step = bot.step().unwrap();
    assert_eq!(step, Step::Wait("the window is minimised".into()));
    assert_eq!(game.borrow().reads, 0);
}

#[test]
fn window_moved_mid_game_clicks_follow_it() {
    let (game, dir) = setup();
    // After the 9th digit (end of the first rows) the window moves 100 px right, 50 down.
    game.borrow_mut().window_moves_after = Some((9, 100, 50));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    // No click went to the window's old place: every empty cell was clicked once,
    // with its digit, and nothing was typed twice.
    let empty = empty_cells(&g.givens);
    assert_eq!(
        g.digits().len(),
        empty.len(),
        "a digit went to the wrong cell"
    );
    assert_eq!(
        g.clicks().len(),
        empty.len(),
        "a click went to the wrong cell"
    );
    // Every click after the move hit its cell in the window's new place.
    let clicks = g.clicks();
    let last = *clicks.last().unwrap();
    assert_eq!(last, g.screen_center(80));
    assert_eq!(
        last,
        ScreenPoint {
            x: 370 + 82 + 64 * 8 + 32,
            y: 219 + 78 + 64 * 8 + 32
        }
    );
}

#[test]
fn the_stop_flag_set_mid_play_ends_the_watch_and_nothing_is_typed_after_it() {
    let (game, dir) = setup();
    let (mut bot, _, stop) = sim::bot(&game, sim::quick_config(dir.path()), false);
    // Ctrl+C while the tenth digit goes in.
    game.borrow_mut().stop_after = Some((10, stop.clone()));
    bot.watch().unwrap();
    let g = game.borrow();
    assert!(stop.load(Ordering::Relaxed));
    assert_eq!(g.digits_typed, 10, "digits typed after the stop");
    assert_ne!(g.board, Grid::parse(SOLUTION).unwrap());
}

#[test]
fn a_window_that_takes_the_focus_mid_play_gets_no_key() {
    let (game, dir) = setup();
    game.borrow_mut().focus_stolen_after = Some(5);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::FocusLost(_)), "{err}");
    assert!(err.to_string().contains("Untitled - Editor"), "{err}");
    let g = game.borrow();
    assert!(
        g.strays().is_empty(),
        "a key went to the focused window: {:?}",
        g.strays()
    );
    assert_eq!(g.digits().len(), 5);
}

/// The window manager holding the focus (as openbox does between a window unmapped
/// and the next one focused) is no thief: no key goes anywhere while it does, and the
/// next move's click gives the game the focus back.
#[test]
fn a_focus_that_no_window_holds_pauses_play_and_a_click_takes_it_back() {
    let (game, dir) = setup();
    game.borrow_mut().nobody_focused_after = Some((5, true));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let step = bot.step().unwrap();
    assert!(
        matches!(&step, Step::Wait(why) if why.contains("focus is on no window")),
        "{step:?}"
    );
    assert_eq!(game.borrow().digits().len(), 5);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    assert!(g.strays().is_empty(), "{:?}", g.strays());
}

/// Without a window manager to give the focus on a click, the pauses end: the third
/// time no window has the focus, play stops with nothing typed astray.
#[test]
fn a_focus_no_click_brings_back_stops_play_on_the_third_try() {
    let (game, dir) = setup();
    game.borrow_mut().nobody_focused_after = Some((5, false));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::FocusLost(_)), "{err}");
    assert!(
        err.to_string().contains("keyboard focus is on no window"),
        "{err}"
    );
    let g = game.borrow();
    assert!(g.strays().is_empty(), "{:?}", g.strays());
    assert_eq!(g.digits().len(), 5);
}

/// The input device checks each key again as it sends it. The game unmapped in the
/// moment since the bot's own checks: nothing sent, and play pauses, then goes on.
#[test]
fn a_key_the_device_finds_would_reach_no_program_pauses_play() {
    let (game, dir) = setup();
    game.borrow_mut().key_refused_after = Some((7, true));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let step = bot.step().unwrap();
    assert!(
        matches!(&step, Step::Wait(why) if why.contains("not on the screen")),
        "{step:?}"
    );
    assert_eq!(game.borrow().digits().len(), 7);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    assert!(g.strays().is_empty(), "{:?}", g.strays());
}

/// The control: a key the device finds another program would get stops play.
#[test]
fn a_key_the_device_finds_another_program_would_get_stops_play() {
    let (game, dir) = setup();
    game.borrow_mut().key_refused_after = Some((7, false));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::Input(_)), "{err}");
    assert_eq!(game.borrow().digits().len(), 7);
}

#[test]
fn the_watch_waits_for_a_focus_thief_to_let_go_then_plays() {
    let (game, dir) = setup();
    game.borrow_mut().focus_stolen_after = Some(5);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(bot.step(), Err(BotError::FocusLost(_))));
    for _ in 0..3 {
        let step = bot.step().unwrap();
        assert!(
            matches!(&step, Step::Wait(why) if why.contains("has the keyboard focus")),
            "{step:?}"
        );
    }
    assert_eq!(
        game.borrow().events.len(),
        // Five clicks and five digits, and the two arrows of the first move (above).
        12,
        "input sent while the thief had the focus"
    );
    // The user closes the other window: the bot takes up the game again.
    game.borrow_mut().focus_elsewhere = None;
    assert!(matches!(
        bot.step().unwrap(),
        Step::Done(Outcome::Solved { .. })
    ));
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    assert!(g.strays().is_empty(), "{:?}", g.strays());
}

#[test]
fn a_notification_over_one_cell_is_never_clicked() {
    let (game, dir) = setup();
    // After the 8th digit a 20x20 bubble pops up over r3c1, for six looks.
    game.borrow_mut().popup_after = Some((8, 18, 6));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    let g = game.borrow();
    assert!(
        g.strays().is_empty(),
        "clicked under the bubble: {:?}",
        g.strays()
    );
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
}

#[test]
fn a_window_over_the_number_pad_stops_the_pad_clicks() {
    let (game, dir) = setup();
    // The pad sits right of the grid; a window covers it but not the grid.
    let pad: Vec<[f32; 2]> = (0..9).map(|d| [700.0 + 4.0 * d as f32, 20.0]).collect();
    let mut config = sim::quick_config(dir.path());
    config.input.method = Some(InputMethod::Pad);
    config.input.pad = Some(pad.clone().try_into().expect("nine buttons"));
    {
        let mut g = game.borrow_mut();
        g.pad = Some(pad);
        let mut over = sim::other_window(78, "Chat", g.window);
        over.rect = sudoku_bot::screen::ScreenRect {
            x: g.window.x + 690,
            y: g.window.y,
            width: 50,
            height: 40,
        };
        g.above.push((over, usize::MAX));
    }
    let (mut bot, _, _) = sim::bot(&game, config, false);
    for _ in 0..3 {
        let step = bot.step().unwrap();
        assert!(
            matches!(&step, Step::Wait(why) if why.contains("\"Chat\"")),
            "{step:?}"
        );
    }
    assert!(
        game.borrow().strays().is_empty(),
        "{:?}",
        game.borrow().strays()
    );
    assert!(game.borrow().digits().is_empty());
}

#[test]
fn an_unmapped_game_window_gets_no_click() {
    let (game, dir) = setup();
    game.borrow_mut().unmapped_after = Some((10, 4));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    let g = game.borrow();
    assert!(
        g.strays().is_empty(),
        "input while unmapped: {:?}",
        g.strays()
    );
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len());
}

#[test]
fn play_interrupted_by_a_lock_goes_on_with_the_same_solution_not_a_new_read() {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.locked_after = Some((7, 4));
        // After the lock, a given (r1c4, a 5) is hidden for a few readings, as under
        // GNOME's popover: read as empty, the grid would have several solutions.
        g.hide_given = Some((7, 3, 6));
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(
        matches!(outcome, Outcome::Solved { several: false, .. }),
        "{outcome:?}"
    );
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    // Every empty cell typed once: nothing was played from a re-read half grid.
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len());
}

#[test]
fn a_locked_screen_gets_no_input() {
    let (game, dir) = setup();
    game.borrow_mut().locked_after = Some((7, 4));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    let g = game.borrow();
    assert!(
        g.strays().is_empty(),
        "typed into the lock screen: {:?}",
        g.strays()
    );
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
}

#[test]
fn a_click_by_the_user_that_does_not_move_the_mouse_stops_the_bot() {
    let (game, dir) = setup();
    game.borrow_mut().user_clicks_after = Some(4);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::Interfered(_)), "{err}");
    assert!(err.to_string().contains("mouse button"), "{err}");
    let g = game.borrow();
    assert_eq!((g.clicks().len(), g.digits().len()), (4, 4));
}

#[test]
fn a_user_already_at_the_mouse_is_waited_for() {
    let (game, dir) = setup();
    game.borrow_mut().user_input = Some("the mouse moved".into());
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let step = bot.step().unwrap();
    assert!(
        matches!(&step, Step::Wait(why) if why.contains("the user is at the mouse")),
        "{step:?}"
    );
    assert!(game.borrow().events.is_empty());
    // Once the hand is off the mouse, the bot plays.
    assert!(matches!(
        bot.step().unwrap(),
        Step::Done(Outcome::Solved { .. })
    ));
}

#[test]
fn configured_click_points_outside_the_window_are_a_config_error() {
    let (game, dir) = setup();
    let mut config = sim::quick_config(dir.path());
    config.grid.cells = Some(CellPlacement {
        origin: [600.0, 78.0],
        cell_size: [64.0, 64.0],
    });
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::Config(_)), "{err}");
    assert!(err.to_string().contains("outside the window"), "{err}");
    assert!(game.borrow().events.is_empty());
}

#[test]
fn a_capture_that_fails_is_taken_again_and_the_puzzle_solved() {
    let (game, dir) = setup();
    game.borrow_mut().failing_captures = 2;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
}

#[test]
fn captures_that_keep_failing_end_the_run_with_the_capture_error() {
    let (game, dir) = setup();
    game.borrow_mut().failing_captures = 100;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(err.to_string().contains("being redrawn"), "{err}");
    assert!(game.borrow().digits().is_empty());
}
