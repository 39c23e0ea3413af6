//! The watch loop driven with a recorded GNOME Sudoku screenshot, a simulated reader and
//! a recording input device: where the clicks land, what is typed, what is read, and
//! what is refused. (Safety, verification and learning have test files of their own:
//! bot_safety.rs, bot_verification.rs, bot_learning.rs.)

use sudoku_bot_testkit as support;

use sudoku_bot::bot::{BotError, Outcome, Step, Verification};
use sudoku_bot::config::{CellPlacement, InputMethod, SeveralSolutions};
use sudoku_bot::input::{Key, ScreenPoint};
use sudoku_bot::Grid;
use support::scenes::*;
use support::sim::{self, Event, ReadMode};

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
    // The reader missed a few givens: several solutions (and still 17 givens or more,
    // or it is refused as no puzzle before the solutions are counted).
    let misread = with_several_solutions(&game.borrow().givens, 2, 4);
    assert!(misread.filled() >= 17);
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
fn refused_picture_goes_to_the_users_private_cache_when_no_folder_is_configured() {
    use std::os::unix::fs::PermissionsExt;
    let (game, dir) = setup();
    game.borrow_mut().read_mode = ReadMode::Doubtful(vec![3, 22]);
    // The user's cache folder; no other test here leaves the picture folder unset.
    let cache = dir.path().join("cache");
    std::env::set_var("XDG_CACHE_HOME", &cache);
    let mut config = sim::quick_config(dir.path());
    config.watch.debug_dir = None;
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let err = bot.run_once().unwrap_err();
    let BotError::Refused {
        picture: Some(path),
        ..
    } = err
    else {
        panic!("no picture saved: {err}")
    };
    let folder = cache.join("sudoku-bot");
    assert!(
        path.starts_with(&folder) && path.is_file(),
        "{}",
        path.display()
    );
    let mode = std::fs::metadata(&folder).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "the pictures' folder is readable by others");
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

/// A game dealing a puzzle with several solutions, the first `unsure` of whose digits
/// the reader reads unsure (0.7, as Tesseract reads via-sudoku's Hershey digits), the
/// `unconfirmed`-th of them not confirmed by the second reading.
fn several_solutions_read(
    unsure: usize,
    unconfirmed: Option<usize>,
) -> (sim::Shared, tempfile::TempDir, Grid) {
    let (game, dir) = setup();
    let puzzle = with_several_solutions(&game.borrow().givens, 2, 4);
    {
        let mut g = game.borrow_mut();
        g.givens = puzzle;
        g.board = puzzle;
        g.unsure = (0..81)
            .filter(|&i| puzzle.cells()[i] != 0)
            .take(unsure)
            .collect();
        g.unconfirmed = unconfirmed.map(|k| g.unsure[k]).into_iter().collect();
    }
    (game, dir, puzzle)
}

#[test]
fn several_solutions_read_unsure_but_confirmed_digit_by_digit_are_played() {
    // via-sudoku deals 20-clue boards with several solutions: a second reading that
    // confirms every digit lets one of them be played (and the game's words prove it).
    let (game, dir, _) = several_solutions_read(5, None);
    game.borrow_mut().verdict_window = true;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(
        matches!(outcome, Outcome::Solved { several: true, .. }),
        "{outcome:?}"
    );
    assert!(game.borrow().is_solved());
}

#[test]
fn several_solutions_read_unsure_are_refused_when_one_digit_is_not_confirmed() {
    let (game, dir, puzzle) = several_solutions_read(5, Some(2));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err().to_string();
    assert!(err.contains("more than one solution"), "{err}");
    assert_eq!(game.borrow().board, puzzle, "nothing typed");
}

// ---- Completion proven by the game's words, never assumed ----------------------------

#[test]
fn a_puzzle_with_several_solutions_is_solved_only_in_the_games_words() {
    let (game, dir, _) = several_solutions_read(0, None);
    game.borrow_mut().verdict_window = true;
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(
        matches!(
            outcome,
            Outcome::Solved {
                several: true,
                verified: sudoku_bot::bot::Verification::Message { .. },
                ..
            }
        ),
        "{outcome:?}"
    );
    assert!(game.borrow().is_solved());
}

#[test]
fn a_puzzle_with_several_solutions_the_game_says_nothing_of_is_not_claimed_solved() {
    // Solo's X-sudoku read as a classic one has several solutions: the grid holding
    // one of them proves nothing when the game may play by other rules.
    let (game, dir, _) = several_solutions_read(0, None);
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let err = bot.run_once().unwrap_err().to_string();
    assert!(
        err.contains("entered all digits; the puzzle has several solutions as read, so the game may use other rules; the game did not confirm"),
        "{err}"
    );
    assert!(!err.contains("solved:"), "{err}");
    assert!(game.borrow().is_solved(), "the digits were all entered");
}
