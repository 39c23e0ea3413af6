//! The watch loop driven with a recorded GNOME Sudoku screenshot, a simulated reader and
//! a recording input device: where the clicks land, what is typed, and when the bot
//! must not type at all.

use sudoku_bot_testkit as support;

use std::sync::atomic::Ordering;

use sudoku_bot::bot::{arrow_path, BotError, Outcome, Step, Verification};
use sudoku_bot::config::{CellPlacement, InputMethod, SeveralSolutions};
use sudoku_bot::input::{Key, ScreenPoint};
use sudoku_bot::solver::{self, Solution};
use sudoku_bot::Grid;
use support::sim::{self, Event, Game, ReadMode};

const SOLUTION: &str =
    "917563428486921753523478619658239147392147865174685392849756231765312984231894576";

fn setup() -> (support::sim::Shared, tempfile::TempDir) {
    let fixture = sim::fixture("gnome-sudoku-easy");
    (Game::new(&fixture, 270, 169), tempfile::tempdir().unwrap())
}

fn empty_cells(grid: &Grid) -> Vec<usize> {
    (0..81).filter(|&i| grid.cells()[i] == 0).collect()
}

#[test]
fn plays_every_empty_cell_at_its_centre_and_verifies() {
    let (game, dir) = setup();
    let givens = game.borrow().givens;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();

    let solution = Grid::parse(SOLUTION).unwrap();
    let empty = empty_cells(&givens);
    assert!(
        matches!(outcome, Outcome::Solved { moves, verified: Verification::GridRead, .. } if moves == empty.len())
    );
    let g = game.borrow();
    assert_eq!(g.board, solution, "the app's board holds the solution");
    // One click per empty cell, on the cell's centre, then its digit.
    let expected_clicks: Vec<ScreenPoint> = empty.iter().map(|&i| g.screen_center(i)).collect();
    assert_eq!(g.clicks(), expected_clicks);
    let expected_digits: Vec<u8> = empty.iter().map(|&i| solution.cells()[i]).collect();
    assert_eq!(g.digits(), expected_digits);
    // Spot-check against the screenshot itself: r1c1 is at window (270,169) + grid
    // corner (82,78) + half a 64-pixel cell.
    assert_eq!(
        g.clicks()[0],
        ScreenPoint {
            x: 270 + 82 + 32,
            y: 169 + 78 + 32
        }
    );
    // Clicks and keys alternate: click, digit, click, digit... The first click showed
    // no selection (this game draws none): one arrow key looked for a keyboard-only
    // game's cursor, and the next one undid it, before the first digit.
    assert!(
        matches!(g.events[0], Event::Click(_))
            && matches!(g.events[1], Event::Key(Key::Right))
            && matches!(g.events[2], Event::Key(Key::Left))
            && matches!(g.events[3], Event::Key(Key::Digit(_)))
            && matches!(g.events[4], Event::Click(_))
            && matches!(g.events[5], Event::Key(Key::Digit(_))),
        "{:?}",
        &g.events[..6]
    );
}

#[test]
fn dry_run_prints_one_line_per_empty_cell_and_sends_nothing() {
    let (game, dir) = setup();
    let givens = game.borrow().givens;
    let (mut bot, out, _) = sim::bot(&game, sim::quick_config(dir.path()), true);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Planned { .. }));
    let text = out.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), empty_cells(&givens).len());
    assert_eq!(lines[0], "r1c1=9 at (384,279)");
    assert_eq!(lines[1], "r1c2=1 at (448,279)");
    assert_eq!(*lines.last().unwrap(), "r9c9=6 at (896,791)");
    let g = game.borrow();
    assert!(g.events.is_empty(), "a dry run sent input: {:?}", g.events);
    assert_eq!(g.board, g.givens);
}

#[test]
fn clashing_read_types_nothing_and_names_the_cells() {
    let (game, dir) = setup();
    let mut misread = game.borrow().givens;
    misread.set(0, 0, 5); // a second 5 in row 1 (r1c4 holds one)
    game.borrow_mut().read_mode = ReadMode::Misread(misread);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, BotError::Refused { .. }), "{msg}");
    assert!(msg.contains("duplicate 5 in row 1"), "{msg}");
    assert!(msg.contains("r1c1") && msg.contains("r1c4"), "{msg}");
    assert!(
        game.borrow().events.is_empty(),
        "typed into a clashing grid"
    );
    // The debug picture is where the message says.
    let BotError::Refused {
        picture: Some(path),
        ..
    } = err
    else {
        panic!("no picture saved")
    };
    assert!(
        path.starts_with(dir.path()) && path.is_file(),
        "{}",
        path.display()
    );
}

#[test]
fn puzzle_with_several_solutions_is_not_played_when_configured_to_refuse() {
    let (game, dir) = setup();
    let mut misread = game.borrow().givens;
    for i in 0..40 {
        misread.set(i / 9, i % 9, 0); // the reader missed the top half
    }
    game.borrow_mut().read_mode = ReadMode::Misread(misread);
    let mut config = sim::quick_config(dir.path());
    config.puzzle.several_solutions = SeveralSolutions::Refuse;
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let msg = bot.run_once().unwrap_err().to_string();
    assert!(msg.contains("more than one solution"), "{msg}");
    assert!(game.borrow().events.is_empty());
}

#[test]
fn doubtful_read_is_reported_not_played() {
    let (game, dir) = setup();
    game.borrow_mut().read_mode = ReadMode::Doubtful(vec![3, 22]);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let msg = bot.run_once().unwrap_err().to_string();
    assert!(msg.contains("doubtful cells: r1c4 r3c5"), "{msg}");
    assert!(msg.contains("picture saved to"), "{msg}");
    assert!(game.borrow().events.is_empty());
}

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
fn unchanged_window_is_not_read_again() {
    let (game, dir) = setup();
    game.borrow_mut().read_mode = ReadMode::NoGrid;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    for _ in 0..5 {
        assert!(matches!(bot.step().unwrap(), Step::Wait(_)));
    }
    let g = game.borrow();
    assert_eq!(g.captures, 5);
    assert_eq!(g.reads, 1, "the same picture was read more than once");
}

#[test]
fn once_gives_up_when_no_grid_appears() {
    let (game, dir) = setup();
    game.borrow_mut().read_mode = ReadMode::NoGrid;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::Timeout { .. }), "{err}");
    assert!(
        err.to_string().contains("no sudoku grid in the window"),
        "{err}"
    );
}

#[test]
fn digits_the_app_missed_are_entered_again() {
    let (game, dir) = setup();
    game.borrow_mut().lose_first_digit = [0usize, 40, 80].into_iter().collect();
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(
        outcome,
        Outcome::Solved {
            verified: Verification::GridRead,
            ..
        }
    ));
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len() + 3);
}

#[test]
fn digits_that_never_take_fail_verification() {
    let (game, dir) = setup();
    // The reader keeps seeing only the givens: as if the app ignored every digit.
    let givens = game.borrow().givens;
    game.borrow_mut().read_mode = ReadMode::Misread(givens);
    let mut config = sim::quick_config(dir.path());
    config.watch.verify_rounds = 2;
    // Slowing down cannot help here: keep the test quick.
    config.delays.slowest = 0;
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let err = bot.run_once().unwrap_err();
    assert!(
        matches!(err, BotError::NotVerified { rounds: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("r1c1"), "{err}");
    // First pass plus two rounds of re-entering (each of them typing a cell at most
    // twice: once more when a look in the middle of play sees it did not take), then
    // it gives up.
    let typed = game.borrow().digits().len();
    let empty = empty_cells(&givens).len();
    assert!((3 * empty..=6 * empty).contains(&typed), "{typed} digits");
}

/// The game announced completion with a window of its own over the grid.
fn assert_verified_by_completion_window(outcome: Outcome) {
    assert!(
        matches!(
            outcome,
            Outcome::Solved {
                verified: Verification::Message { .. },
                ..
            }
        ),
        "{outcome:?}"
    );
}

#[test]
fn completion_dialog_over_the_grid_counts_as_verified() {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.completion_dialog = true;
        // What GNOME Sudoku shows once solved: the dialog hides the grid from captures.
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert_verified_by_completion_window(bot.run_once().unwrap());
}

#[test]
fn a_grid_dimmed_by_the_game_is_not_typed_into() {
    let (game, dir) = setup();
    // GNOME Sudoku dims the solved grid (no digits read) a moment before its dialog.
    game.borrow_mut().dim_then_dialog_after = Some(3);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert_verified_by_completion_window(bot.run_once().unwrap());
    let g = game.borrow();
    assert_eq!(
        g.clicks().len(),
        empty_cells(&g.givens).len(),
        "typed into the dimmed grid"
    );
}

#[test]
fn keyboard_method_clicks_once_then_uses_arrows() {
    let (game, dir) = setup();
    let mut config = sim::quick_config(dir.path());
    config.input.method = Some(InputMethod::Keys);
    let (mut bot, _, _) = sim::bot(&game, config, false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    let g = game.borrow();
    assert_eq!(g.clicks().len(), 1);
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    assert!(g.events.contains(&Event::Key(Key::Right)));
}

/// Plays the sim game changed by `change` with the quick configuration, checks it ends
/// solved, and gives the game back.
fn solved_sim_game(change: impl FnOnce(&mut Game)) -> support::sim::Shared {
    let (game, dir) = setup();
    change(&mut game.borrow_mut());
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
    game
}

#[test]
fn a_game_that_shows_its_selection_and_takes_arrow_keys_is_played_with_them() {
    let game = solved_sim_game(|g| g.draws_selection = true);
    let g = game.borrow();
    let cells = empty_cells(&g.givens);
    // The first move's click, and then arrows: no other click, no digit wasted.
    assert_eq!(g.clicks().len(), 1, "{:?}", g.events);
    assert_eq!(g.digits().len(), cells.len());
    // In the order that needs the fewest arrows: fewer than reading order takes.
    let arrows = g
        .events
        .iter()
        .filter(|e| matches!(e, Event::Key(Key::Up | Key::Down | Key::Left | Key::Right)))
        .count();
    let reading_order: usize = cells.windows(2).map(|p| arrow_path(p[0], p[1]).len()).sum();
    assert!(
        arrows < reading_order,
        "{arrows} arrows, reading order {reading_order}"
    );
}

#[test]
fn arrow_keys_that_do_nothing_leave_the_game_to_clicks_and_waste_no_digit() {
    let game = solved_sim_game(|g| {
        g.draws_selection = true;
        g.arrows_ignored = true;
    });
    let g = game.borrow();
    let empty = empty_cells(&g.givens).len();
    // The digit on trial was never typed: the arrows showed nothing first.
    assert_eq!(g.digits().len(), empty);
    assert_eq!(g.clicks().len(), empty);
}

#[test]
fn arrow_keys_that_skip_the_givens_go_back_to_clicks() {
    let game = solved_sim_game(|g| {
        g.draws_selection = true;
        g.arrows_skip_givens = true;
    });
    assert!(
        game.borrow().clicks().len() > 1,
        "arrows kept although they skip givens"
    );
}

#[test]
fn a_page_that_scrolls_on_arrow_keys_gets_no_click_where_the_cells_were() {
    let game = solved_sim_game(|g| {
        g.draws_selection = true;
        g.arrows_scroll = Some(40);
    });
    let g = game.borrow();
    // Every click after the scroll went to a cell of the grid where it is now: each
    // digit typed landed in the cell clicked (none lost, none elsewhere).
    assert_eq!(
        g.digits().len(),
        empty_cells(&g.givens).len(),
        "{:?}",
        g.events
    );
    assert!(g.strays().is_empty(), "{:?}", g.strays());
}

#[test]
fn pad_method_clicks_the_cell_then_the_digit_button() {
    let (game, dir) = setup();
    let pad: Vec<[f32; 2]> = (0..9).map(|d| [662.0 + 8.0 * d as f32, 20.0]).collect();
    let mut config = sim::quick_config(dir.path());
    config.input.method = Some(InputMethod::Pad);
    config.input.pad = Some(pad.clone().try_into().expect("nine buttons"));
    game.borrow_mut().pad = Some(pad);
    let (mut bot, _, _) = sim::bot(&game, config, false);
    assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
    let g = game.borrow();
    assert!(g.digits().is_empty(), "pad method typed keys");
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    // r1c1 = 9: its cell, then the ninth pad button at window (726, 20).
    assert_eq!(g.clicks()[0], g.screen_center(0));
    assert_eq!(
        g.clicks()[1],
        ScreenPoint {
            x: 270 + 726,
            y: 169 + 20
        }
    );
}

#[test]
fn grid_override_in_config_moves_the_clicks() {
    let (game, dir) = setup();
    let mut config = sim::quick_config(dir.path());
    config.grid.cells = Some(CellPlacement {
        origin: [82.0, 78.0],
        cell_size: [64.0, 64.0],
    });
    config.grid.click_offset = [3.0, -2.0];
    let (mut bot, out, _) = sim::bot(&game, config, true);
    bot.run_once().unwrap();
    assert_eq!(out.text().lines().next(), Some("r1c1=9 at (387,277)"));
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

/// A bot that has played the game's puzzle in one pass of the loop.
fn bot_that_solved_one(game: &sim::Shared, dir: &std::path::Path) -> sim::SimBot {
    let (mut bot, _, _) = sim::bot(game, sim::quick_config(dir), false);
    assert!(matches!(
        bot.step().unwrap(),
        Step::Done(Outcome::Solved { .. })
    ));
    bot
}

#[test]
fn watch_plays_a_puzzle_once_and_then_waits() {
    let (game, dir) = setup();
    let mut bot = bot_that_solved_one(&game, dir.path());
    let typed = game.borrow().events.len();
    for _ in 0..3 {
        assert!(matches!(bot.step().unwrap(), Step::Wait(_)));
    }
    assert_eq!(
        game.borrow().events.len(),
        typed,
        "played the solved puzzle again"
    );
}

// ---- Never a keystroke anywhere but the game -----------------------------------------

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
fn a_digit_the_second_reading_does_not_confirm_is_never_typed() {
    let (game, dir) = setup();
    // r1c4 holds a given 5; the second reading does not agree.
    game.borrow_mut().unconfirmed = vec![3];
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err();
    assert!(matches!(err, BotError::Refused { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("second reading") && msg.contains("r1c4"),
        "{msg}"
    );
    let g = game.borrow();
    assert!(g.events.is_empty(), "typed a puzzle not confirmed");
    assert!(
        g.forgotten.contains(&3),
        "the unconfirmed glyph stayed in the cache"
    );
}

#[test]
fn verification_reads_without_the_cache_that_echoes_the_answer() {
    let (game, dir) = setup();
    let solution = Grid::parse(SOLUTION).unwrap();
    {
        let mut g = game.borrow_mut();
        g.lose_first_digit = [0usize, 40].into_iter().collect();
        g.read_mode = ReadMode::CacheEchoes(solution);
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert!(matches!(
        bot.run_once().unwrap(),
        Outcome::Solved {
            verified: Verification::GridRead,
            ..
        }
    ));
    let g = game.borrow();
    assert_eq!(g.board, solution, "claimed solved with cells missing");
    assert!(g.fresh_reads > 0);
}

#[test]
fn debug_pictures_are_bounded_and_never_saved_twice() {
    let (game, dir) = setup();
    game.borrow_mut().read_mode = ReadMode::Doubtful(vec![3]);
    let mut config = sim::quick_config(dir.path());
    config.watch.debug_keep = 3;
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let count = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with("refused-")
            })
            .count()
    };
    // A cursor blinking in a cell: the same two pictures in turn.
    let base = game.borrow().picture.clone();
    for k in 0..6 {
        let mut picture = base.clone();
        if k % 2 == 1 {
            for y in 300..340 {
                for x in 300..340 {
                    picture.put_pixel(x, y, image::Rgba([0, 0, 0, 255]));
                }
            }
        }
        game.borrow_mut().picture = picture;
        assert!(bot.step().is_err());
    }
    assert_eq!(count(), 2, "the same picture was saved again");
    // A clock ticking over an unreadable grid: a new picture each time.
    for k in 0..6u32 {
        let mut picture = base.clone();
        for y in 0..40 {
            for x in (100 + 50 * k)..(140 + 50 * k) {
                picture.put_pixel(x, y, image::Rgba([0, 0, 0, 255]));
            }
        }
        game.borrow_mut().picture = picture;
        assert!(bot.step().is_err());
    }
    assert_eq!(count(), 3, "more pictures kept than debug_keep");
}

// ---- Completion proven by the game's words, never assumed ----------------------------

/// Plays the puzzle of a game whose dialog over the grid, once full, says `words`; the
/// bot's error, and the folder of its debug pictures.
fn error_after_a_dialog_saying(words: &str) -> (BotError, tempfile::TempDir) {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.completion_dialog = true;
        g.dialog_words = words.into();
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    (bot.run_once().unwrap_err(), dir)
}

#[test]
fn a_message_saying_mistakes_over_the_grid_is_a_failure_in_the_games_words() {
    let (err, _dir) = error_after_a_dialog_saying("Sorry, your solution contains mistakes.");
    assert!(matches!(err, BotError::GameSaysWrong { .. }), "{err}");
    assert!(err.to_string().contains("contains mistakes"), "{err}");
}

#[test]
fn a_window_whose_words_say_neither_is_not_taken_for_success() {
    let (err, _dir) = error_after_a_dialog_saying("Information");
    let msg = err.to_string();
    assert!(
        msg.starts_with("entered all digits; the game's response could not be confirmed"),
        "{msg}"
    );
    assert!(msg.contains("\"Information\""), "{msg}");
    // With a picture of the message for the user.
    let BotError::Unconfirmed {
        picture: Some(picture),
        ..
    } = err
    else {
        panic!("no picture: {msg}");
    };
    assert!(picture.is_file());
}

#[test]
fn a_banner_over_the_grid_saying_well_done_proves_it_solved() {
    let (game, dir) = setup();
    game.borrow_mut().banner = Some("Well done!".into());
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(
        matches!(
            &outcome,
            Outcome::Solved {
                verified: Verification::Message { from, words },
                ..
            } if from == "a banner over the grid" && words == "Well done!"
        ),
        "{outcome:?}"
    );
    assert!(game.borrow().is_solved());
}

#[test]
fn a_digit_the_game_changed_is_fixed_before_the_game_judges_the_grid() {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.verdict_window = true;
        g.tamper_at = Some(10);
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert!(g.is_solved(), "{}", g.board);
    // The closed loop saw the changed digit and typed it again before the grid was
    // full: the game's one verdict says solved.
    assert_eq!(g.verdicts, 1);
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len() + 1);
}

#[test]
fn a_solved_grid_under_a_banner_is_not_played_again() {
    let (game, dir) = setup();
    let mut bot = bot_that_solved_one(&game, dir.path());
    // A banner now hides three rows, and the reader takes what shows for digits.
    let mut under_banner = game.borrow().board;
    for i in 36..45 {
        under_banner.set(i / 9, i % 9, (under_banner.cells()[i] % 9) + 1);
    }
    waits_as_covered(&game, &mut bot, ReadMode::Misread(under_banner));
}

/// Once the reader reads the window as `mode` says (a banner over the solved grid),
/// the bot's next look waits, calling the grid covered, and types nothing.
fn waits_as_covered(game: &sim::Shared, bot: &mut sim::SimBot, mode: ReadMode) {
    let typed = game.borrow().events.len();
    game.borrow_mut().read_mode = mode;
    game.borrow_mut()
        .picture
        .put_pixel(0, 0, image::Rgba([1, 2, 3, 255]));
    let step = bot.step().unwrap();
    assert!(
        matches!(&step, Step::Wait(why) if why.contains("partly covered")),
        "{step:?}"
    );
    assert_eq!(game.borrow().events.len(), typed, "typed over the banner");
}

#[test]
fn a_banner_read_as_clashing_digits_over_the_solved_grid_is_waited_out_not_refused() {
    let (game, dir) = setup();
    let mut bot = bot_that_solved_one(&game, dir.path());
    // The banner's words over row 5 read as digits, two of them the same: the reader
    // refuses the grid for a clash.
    let mut under_banner = game.borrow().board;
    for c in 0..9 {
        under_banner.set(4, c, 8);
    }
    let doubtful: Vec<usize> = (36..45).collect();
    waits_as_covered(&game, &mut bot, ReadMode::Clashing(under_banner, doubtful));
    let refused = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("refused")
        })
        .count();
    assert_eq!(
        refused, 0,
        "a refused-puzzle picture was saved for a banner"
    );
}

#[test]
fn a_new_puzzle_after_one_solved_is_played_from_scratch() {
    let (game, dir) = setup();
    let mut bot = bot_that_solved_one(&game, dir.path());
    // The game deals the same puzzle with its digits relabelled (1<->2 and so on).
    let relabel = |g: &Grid| {
        let mut out = *g;
        for i in 0..81 {
            let d = g.cells()[i];
            if d != 0 {
                out.set(i / 9, i % 9, [0, 2, 1, 4, 3, 6, 5, 8, 7, 9][d as usize]);
            }
        }
        out
    };
    {
        let mut g = game.borrow_mut();
        g.givens = relabel(&g.givens);
        g.board = g.givens;
        g.picture.put_pixel(0, 0, image::Rgba([1, 2, 3, 255]));
    }
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert_eq!(g.board, relabel(&Grid::parse(SOLUTION).unwrap()));
}

/// The fixture's puzzle with givens taken away (in reading order) until it has between
/// `min` and `max` solutions.
fn with_several_solutions(givens: &Grid, min: usize, max: usize) -> Grid {
    let mut g = *givens;
    for i in 0..81 {
        if g.cells()[i] == 0 {
            continue;
        }
        let mut fewer = g;
        fewer.set(i / 9, i % 9, 0);
        let n = solver::count_solutions(&fewer, max + 1);
        if n <= max {
            g = fewer;
        }
        if n >= min && n <= max {
            return g;
        }
    }
    panic!("no puzzle with {min}..={max} solutions");
}

#[test]
fn a_puzzle_with_several_solutions_read_with_confidence_is_played() {
    let (game, dir) = setup();
    let puzzle = with_several_solutions(&game.borrow().givens, 2, 4);
    {
        let mut g = game.borrow_mut();
        g.givens = puzzle;
        g.board = puzzle;
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(
        matches!(outcome, Outcome::Solved { several: true, .. }),
        "{outcome:?}"
    );
    assert!(game.borrow().is_solved());
    assert!(
        sudoku_bot::bot::describe(&outcome).contains("several"),
        "{}",
        sudoku_bot::bot::describe(&outcome)
    );
}

#[test]
fn a_solution_the_game_rejects_is_switched_for_another() {
    let (game, dir) = setup();
    let puzzle = with_several_solutions(&game.borrow().givens, 2, 3);
    let Solution::Multiple(first) = solver::solve(&puzzle) else {
        panic!("several solutions");
    };
    // The game keeps a solution of its own, not the one the solver finds first.
    let stored = (0..81)
        .filter(|&i| puzzle.cells()[i] == 0)
        .flat_map(|i| (1..=9u8).map(move |d| (i, d)))
        .find_map(|(i, d)| {
            let mut g = puzzle;
            g.set(i / 9, i % 9, d);
            match solver::solve(&g) {
                Solution::Unique(s) | Solution::Multiple(s) if s != first => Some(s),
                _ => None,
            }
        })
        .unwrap();
    {
        let mut g = game.borrow_mut();
        g.givens = puzzle;
        g.board = puzzle;
        g.stored = Some(stored);
        g.verdict_window = true;
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert_eq!(g.board, stored);
    assert!(g.is_solved());
}

// ---- Pace to the game ----------------------------------------------------------------

#[test]
fn a_game_that_takes_the_focus_late_is_played_slower_until_digits_land() {
    let (game, dir) = setup();
    // Keys typed within 30 ms of a click go to the cell selected before.
    game.borrow_mut().focus_delay = Some(std::time::Duration::from_millis(30));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
}

#[test]
fn a_game_that_draws_its_selection_late_is_played_with_arrow_keys_without_a_probe() {
    let game = solved_sim_game(|g| {
        // The focus, and the frame that shows it, follow a click 60 ms late.
        g.focus_delay = Some(std::time::Duration::from_millis(60));
        g.draws_selection = true;
    });
    let g = game.borrow();
    // The first move's click and then arrows, which need no focus after a click: no
    // probe of the late focus (a click on a given, then on the cell).
    assert_eq!(g.clicks().len(), 1, "{:?}", g.events);
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len());
    assert!(g.misplaced_at.is_empty(), "{:?}", g.misplaced_at);
}

// ---- Learning how the game takes digits ---------------------------------------------

#[test]
fn a_keyboard_only_game_is_played_from_its_cursor_found_before_any_digit() {
    let game = solved_sim_game(|g| {
        g.clicks_ignored = true;
        g.draws_selection = true;
        g.selected = Some(0);
    });
    let g = game.borrow();
    // One click, which showed nothing; the cursor was found by an arrow key before a
    // digit key went anywhere: every digit typed went into its cell.
    assert_eq!(g.clicks().len(), 1, "{:?}", g.clicks());
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len());
}

#[test]
fn a_game_whose_click_enters_the_palette_digit_is_played_with_arrow_keys() {
    let (game, dir) = setup();
    game.borrow_mut().palette = Some(1);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    // One click (the first move, which showed the click enters a digit), then keys.
    assert_eq!(g.clicks().len(), 1, "{:?}", g.clicks());
}

#[test]
fn shorter_pauses_are_tried_once_learnt_and_dropped_at_the_first_digit_in_the_wrong_cell() {
    // A game that takes the focus 80 ms after a click: the configured 100 ms are
    // enough, the 50 ms on trial are not.
    let play = |shorten: bool| {
        let (game, dir) = setup();
        game.borrow_mut().focus_delay = Some(std::time::Duration::from_millis(80));
        let mut config = sim::quick_config(dir.path());
        config.delays.after_click = 100;
        config.delays.after_key = 2;
        config.delays.shorten = shorten;
        let (mut bot, _, _) = sim::bot(&game, config, false);
        let outcome = bot.run_once().unwrap();
        assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
        let g = game.borrow();
        assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
        g.misplaced_at.clone()
    };
    assert_eq!(play(false), Vec::<usize>::new());
    let misplaced = play(true);
    // Learning takes two moves, the trial eight: a digit in the wrong cell only there,
    // and none once the pace went back.
    assert!(!misplaced.is_empty(), "the trial never happened");
    assert!(
        misplaced.iter().all(|&at| at < 2 + 8),
        "digits in the wrong cell after the trial: {misplaced:?}"
    );
}

#[test]
fn a_pinned_input_method_is_not_learnt() {
    // Reads of the same game, learning and pinned: learning looks after the first
    // click (again for up to 150 ms while nothing shows in the cell).
    let reads = |method: Option<InputMethod>| {
        let (game, dir) = setup();
        let mut config = sim::quick_config(dir.path());
        config.input.method = method;
        let (mut bot, _, _) = sim::bot(&game, config, false);
        assert!(matches!(bot.run_once().unwrap(), Outcome::Solved { .. }));
        let g = game.borrow();
        assert_eq!(g.clicks().len(), empty_cells(&g.givens).len());
        g.reads
    };
    assert!(reads(Some(InputMethod::Click)) < reads(None));
}

// ---- Faults ---------------------------------------------------------------------------

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
