//! The watch loop's proof that a puzzle is solved, against the simulated game: the grid
//! read again without the cache, digits entered again, the game's own words in a dialog
//! or a banner, a solution the game rejects, and the solved grid left alone.

use sudoku_bot_testkit as support;

use sudoku_bot::bot::{BotError, Outcome, Verification};
use sudoku_bot::solver::{self, Solution};
use sudoku_bot::Grid;
use support::scenes::*;
use support::sim::{self, ReadMode};

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
fn givens_doubted_for_a_clash_of_typed_digits_do_not_stop_the_fix() {
    // sudoku-1440 (Kivy) puts a typed digit into the wrong cell; a fresh reading then
    // doubts every cell of that digit, givens too, for the clash (its 7s). Those givens
    // are not hidden by anything: the typed cells that are wrong are entered again.
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.doubts_clashing_digit = true;
        g.tamper_at = Some(40);
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once();
    let g = game.borrow();
    assert!(
        matches!(outcome, Ok(Outcome::Solved { .. })),
        "{outcome:?} {}",
        g.board
    );
    assert!(g.is_solved(), "{}", g.board);
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

/// Plays the simulated game that shows a victory screen with `words` in place of the
/// grid once solved, its window labelled `label` all along.
fn play_to_a_victory_screen(
    words: &str,
    label: &str,
) -> (Result<Outcome, BotError>, tempfile::TempDir) {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.victory = Some(words.into());
        g.label = label.into();
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let result = bot.run_once();
    assert!(game.borrow().is_solved(), "the game was not solved");
    (result, dir)
}

#[test]
fn a_victory_screen_in_place_of_the_grid_proves_it_solved_in_its_own_words() {
    let (result, _dir) = play_to_a_victory_screen("You won! Time 02:13  Play again", "");
    let outcome = result.unwrap();
    let Outcome::Solved {
        verified: Verification::Message { from, words },
        ..
    } = &outcome
    else {
        panic!("not verified by the game's words: {outcome:?}");
    };
    assert!(words.contains("You won"), "{words}");
    assert!(from.contains("no grid"), "{from}");
}

#[test]
fn a_screen_without_grid_or_words_is_not_confirmed_and_is_no_verification_failure() {
    let (result, _dir) = play_to_a_victory_screen("", "");
    let err = result.unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, BotError::Unconfirmed { .. }), "{msg}");
    assert!(!msg.contains("verification failed"), "{msg}");
    assert!(msg.contains("no grid found in the window"), "{msg}");
    assert!(msg.contains("no words"), "{msg}");
}

#[test]
fn a_label_that_said_solved_before_play_proves_nothing_when_the_grid_is_gone() {
    let (result, _dir) = play_to_a_victory_screen("Puzzles solved: 3", "Puzzles solved: 3");
    let err = result.unwrap_err();
    assert!(matches!(err, BotError::Unconfirmed { .. }), "{err}");
    assert!(err.to_string().contains("Puzzles solved: 3"), "{err}");
}

#[test]
fn a_text_field_that_keeps_its_wrong_digit_is_cleared_before_the_digit_is_typed_again() {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        // Cells are text fields that keep their first character, and the game turned
        // the tenth digit typed into another.
        g.text_fields = true;
        g.tamper_at = Some(10);
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once();
    assert!(matches!(outcome, Ok(Outcome::Solved { .. })), "{outcome:?}");
    let g = game.borrow();
    assert!(g.is_solved(), "{}", g.board);
    // One digit typed again, after the cell was cleared.
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len() + 1);
}

#[test]
fn a_text_field_retyped_while_the_game_is_still_being_learnt_is_cleared_first() {
    // react-sudoku on a busy machine: lost keys keep the bot learning, and the cell
    // whose digit the game changed is typed again in an observed move, which must
    // clear the text field too (it keeps its first character).
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.text_fields = true;
        g.app_name = "Sudoku-react";
        // The first digit typed (r1c1's 9) shows as another; the first keys for r1c2
        // and r1c5 are lost (the game was busy), so learning starts over each time.
        g.tamper_at = Some(1);
        g.lose_first_digit = [1, 4].into_iter().collect();
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once();
    assert!(matches!(outcome, Ok(Outcome::Solved { .. })), "{outcome:?}");
    let g = game.borrow();
    assert!(g.is_solved(), "{}", g.board);
    assert!(
        g.events
            .contains(&sim::Event::Key(sudoku_bot::input::Key::Backspace)),
        "{:?}",
        g.events
    );
}

/// Plays a game that draws "Successful!!" across row 5 once solved (`spares_givens`:
/// over the typed cells only), and checks the bot quotes it as its proof; the game.
fn solved_under_a_row_banner(spares_givens: bool) -> sim::Shared {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.banner = Some("Successful!!".into());
        g.banner_row = Some(4);
        g.banner_spares_givens = spares_givens;
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    match bot.run_once() {
        Ok(Outcome::Solved {
            verified: Verification::Message { words, from },
            ..
        }) => {
            assert_eq!(words, "Successful!!");
            assert_eq!(from, "a banner over the grid");
        }
        other => panic!("{other:?}"),
    }
    game
}

#[test]
fn a_win_banner_across_one_row_is_read_in_that_row_and_quoted() {
    // game-sudoku (pygame): "Successful!!" across row 5, over its digits, once solved;
    // read over the whole grid, the word is lost among the digits.
    solved_under_a_row_banner(false);
}

#[test]
fn a_win_banner_over_the_typed_cells_of_a_row_whose_givens_still_read_is_read() {
    // game-sudoku in stop 37's zoo: "Successful!!" across row 5 hid only the cells the
    // bot had typed; the row's givens still read. The bot took the banner's ink for
    // digits the game had lost, typed them again three times over the solved grid,
    // and gave up: "verification failed".
    let game = solved_under_a_row_banner(true);
    let g = game.borrow();
    assert!(
        (36..45).any(|i| g.givens.cells()[i] != 0),
        "a given in row 5"
    );
    let to_type = (0..81).filter(|&i| g.givens.cells()[i] == 0).count();
    assert_eq!(g.digits_typed, to_type, "nothing typed over the banner");
}

#[test]
fn a_given_that_stops_reading_does_not_keep_lost_digits_from_being_entered_again() {
    // via-sudoku (OpenCV, docs/zoo.md): after play, one of its given 9s was doubtful in
    // every look, and the digits the game had lost were never entered again; the bot
    // gave up with "could not be confirmed" on a game it could have finished.
    let (game, dir) = setup();
    let givens = game.borrow().givens;
    let empty = empty_cells(&givens);
    let given = (0..81).find(|&i| givens.cells()[i] != 0).unwrap();
    {
        let mut g = game.borrow_mut();
        // The last move is lost (looks in the middle of play leave it to verification).
        g.lose_first_digit = [*empty.last().unwrap()].into_iter().collect();
        // From the last digit on, the given never reads.
        g.hide_given = Some((empty.len(), given, 10_000));
        g.completion_dialog = true;
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    assert_verified_by_completion_window(bot.run_once().unwrap());
    let g = game.borrow();
    assert_eq!(
        g.board,
        Grid::parse(SOLUTION).unwrap(),
        "the lost digit was not entered again"
    );
}
