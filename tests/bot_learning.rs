//! Learning how the simulated game takes digits: clicks and keys, arrow keys on trial and
//! given up, a focus that comes late, a keyboard-only game's cursor, a palette, shorter
//! pauses, and a pinned input method. Remembering each game: tests/bot_memory.rs.

use sudoku_bot_testkit as support;

use sudoku_bot::bot::{arrow_path, Outcome};
use sudoku_bot::config::InputMethod;
use sudoku_bot::input::Key;
use sudoku_bot::Grid;
use support::scenes::*;
use support::sim::{self, Event};

/// The simulated game solved by a bot that may try arrow keys in place of clicks
/// (`[input] try_arrows`), once `change` made it what the test needs.
fn solved_trying_arrows(change: impl FnOnce(&mut sim::Game)) -> sim::Shared {
    let (game, dir) = setup();
    change(&mut game.borrow_mut());
    let mut config = sim::quick_config(dir.path());
    config.input.try_arrows = Some(true);
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
    game
}

#[test]
fn a_game_whose_arrow_keys_go_back_to_its_menu_is_played_with_clicks_that_work() {
    // Clicks select and keys enter digits; any arrow key leaves the puzzle for the
    // game's menu. By default the bot keeps the clicks that work in a game it does not
    // know.
    let game = solved_sim_game(|g| {
        g.draws_selection = true;
        g.menu_on_arrows = true;
        g.app_name = "Kaidoku";
    });
    let g = game.borrow();
    let arrows = g
        .events
        .iter()
        .filter(|e| matches!(e, Event::Key(Key::Up | Key::Down | Key::Left | Key::Right)))
        .count();
    assert_eq!(arrows, 0, "{:?}", g.events);
    assert_eq!(g.digits().len(), empty_cells(&g.givens).len());
}

#[test]
fn gnome_sudoku_whose_arrow_keys_were_seen_harmless_is_played_with_them_by_default() {
    // The same game under GNOME Sudoku's name: no configuration, and arrow keys move
    // the selection after the first moves (the fast way GNOME Sudoku is played).
    let game = solved_sim_game(|g| g.draws_selection = true);
    let g = game.borrow();
    let arrows = g
        .events
        .iter()
        .filter(|e| matches!(e, Event::Key(Key::Up | Key::Down | Key::Left | Key::Right)))
        .count();
    assert!(arrows > 10, "{:?}", g.events);
    assert!(g.clicks().len() < 5, "{} clicks", g.clicks().len());
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

#[test]
fn a_game_that_shows_its_selection_and_takes_arrow_keys_is_played_with_them() {
    let game = solved_trying_arrows(|g| g.draws_selection = true);
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
    let game = solved_trying_arrows(|g| {
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
    let game = solved_trying_arrows(|g| {
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
    let game = solved_trying_arrows(|g| {
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
    let game = solved_trying_arrows(|g| {
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
fn a_cursor_that_fills_when_the_window_takes_the_focus_is_not_the_clicks_selection() {
    // play-sudoku (curses in xterm): the first click focuses the terminal, whose
    // block cursor on the empty r1c1 turns from hollow to filled. That change is not
    // the click selecting r1c2, and the digit landing in r1c1 is the game's cursor,
    // not a late focus: it used to be taken for one, three times, and the bot gave up.
    let game = solved_sim_game(|g| {
        g.clicks_ignored = true;
        g.draws_selection = true;
        g.cursor_hollow_until_click = true;
        // On an empty cell beside the first move (r1c1).
        g.selected = Some(1);
    });
    let g = game.borrow();
    assert_eq!(g.clicks().len(), 1, "{:?}", g.clicks());
}

#[test]
fn a_screen_redrawn_after_the_arrow_key_does_not_hide_the_cursor_it_moved() {
    // play-sudoku (curses in tmux in xterm) clears its whole screen after every key and
    // draws it again: a look in between sees forty cells blank. The probe's arrow key
    // then seemed to change forty cells, not to move a cursor; the first digit landed
    // by chance (the cursor sat on the first move's cell), and the next went there too,
    // taken three times for a late focus: the bot gave up (2 of 20 zoo runs).
    let game = solved_sim_game(|g| {
        g.clicks_ignored = true;
        g.draws_selection = true;
        g.redraws_after_key = Some(std::time::Duration::from_millis(30));
        // On the first move's cell (r1c1).
        g.selected = Some(0);
    });
    let g = game.borrow();
    // One click, which showed nothing; the arrow key found the cursor; every digit
    // went into its cell.
    assert_eq!(g.clicks().len(), 1, "{:?}", g.clicks());
    assert!(g.strays().is_empty(), "{:?}", g.strays());
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
fn a_click_that_entered_the_very_digit_to_play_is_a_palette_not_a_deaf_game() {
    // KSudoku under load: a click on the empty r1c1 enters the palette's digit, which
    // is the digit r1c1 needs (9), so the key 9 that follows changes nothing. That is
    // the digit in its cell, not "neither a click nor the key changed anything".
    let game = solved_sim_game(|g| g.palette = Some(9));
    let g = game.borrow();
    assert_eq!(g.clicks().len(), 1, "{:?}", g.clicks());
}

#[test]
fn a_caret_read_as_a_digit_once_after_the_first_click_is_no_palette() {
    // React Sudoku: after 1 of 10 first clicks, the clicked empty cell read as a 1 (its
    // input's caret, blinking, is the likeliest), and the bot took it for a palette game
    // and gave up. A digit the click entered stays through two more looks; the caret
    // does not.
    let clicks = solved_sim_game(|_| {}).borrow().clicks().len();
    assert!(clicks > 1, "the game is played with a click a move");
    for reads in [1, 2] {
        let game = solved_sim_game(|g| g.caret_read_as = Some((1, reads)));
        // Played as without the caret: a click a move, not one click and arrow keys.
        assert_eq!(
            game.borrow().clicks().len(),
            clicks,
            "caret for {reads} reads"
        );
    }
}

/// Plays the simulated game whose click opens a number wheel over the cell and its
/// neighbours (made what the test needs by `change`); the game, solved.
fn solved_with_a_wheel(change: impl FnOnce(&mut sim::Game)) -> sim::Shared {
    solved_sim_game(|g| {
        g.wheel = true;
        g.draws_selection = true;
        g.app_name = "Wheel-sudoku";
        change(g);
    })
}

/// Every digit typed once, into its cell (no click landed on a wedge of a wheel left
/// open, which would have put its digit in another cell), nothing sent outside the
/// game, and the wheel closed by `beside` clicks beside the grid and `escapes` Escapes.
fn assert_each_digit_once_and_the_wheel_closed(g: &sim::Game, beside: usize, escapes: usize) {
    assert_eq!(
        g.digits().len(),
        empty_cells(&g.givens).len(),
        "{:?}",
        g.events
    );
    assert_eq!(g.clicks_off_grid_and_escapes(), (beside, escapes));
    assert!(g.strays().is_empty(), "{:?}", g.strays());
}

#[test]
fn a_number_wheel_a_click_opens_over_the_grid_is_closed_with_a_click_beside_it_after_each_digit() {
    let game = solved_with_a_wheel(|_| {});
    let g = game.borrow();
    // One click beside the grid after each digit, inside the game's window; no
    // Escape (a key some games take for "back to the menu").
    assert_each_digit_once_and_the_wheel_closed(&g, empty_cells(&g.givens).len(), 0);
}

#[test]
fn a_number_wheel_that_only_escape_closes_is_closed_with_escape_after_each_digit() {
    let game = solved_with_a_wheel(|g| g.wheel_closes_on_escape_only = true);
    let g = game.borrow();
    // The one click beside the grid that did not close it, then Escape each time.
    assert_each_digit_once_and_the_wheel_closed(&g, 1, empty_cells(&g.givens).len());
}

#[test]
fn a_pad_only_game_whose_pad_picks_the_digit_before_the_cell_is_learnt() {
    // Number Place: keys do nothing and a click selects nothing; a pad button beside
    // the grid picks a digit that a click on a cell then enters (or takes out of a
    // cell that holds it).
    let pad: Vec<[f32; 2]> = (0..9).map(|k| [700.0, 100.0 + 55.0 * k as f32]).collect();
    let game = solved_sim_game(|g| {
        g.pad_first = true;
        g.pad = Some(pad.clone());
        g.app_name = "Number-place";
    });
    let g = game.borrow();
    // Each empty cell got its digit once: none was clicked again with its digit
    // picked (which would have emptied it).
    assert_eq!(
        g.digits_typed,
        empty_cells(&g.givens).len(),
        "{:?}",
        g.events
    );
    // Played digit by digit: each pad button picked once, give or take the first.
    let (on_pad, _) = g.clicks_off_grid_and_escapes();
    assert!(on_pad <= 10, "{on_pad} clicks on the pad");
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

// ---- Pace as evidence -----------------------------------------------------------------

#[test]
fn one_click_the_game_missed_does_not_slow_the_rest_of_the_game() {
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.draws_selection = true;
        // Played with clicks (arrow keys do nothing), and busy once: the second
        // click, right after the first key, is lost.
        g.arrows_ignored = true;
        g.busy_at_clicks = vec![2];
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
    // The hypothesis that the game ignores clicks soon after a key was made from that
    // one click and dropped when the moves at the configured pauses landed: the pause
    // after a key is back at the configured 0 ms.
    assert_eq!(bot.pace(), (0, 0), "{:?}", bot.hypotheses());
    assert!(bot.hypotheses().is_empty(), "{:?}", bot.hypotheses());
}

#[test]
fn a_game_that_really_needs_the_pause_keeps_it_after_the_trial() {
    let (game, dir) = setup();
    // Keys typed within 30 ms of a click go to the cell selected before: learning
    // sees it (a digit in the cell before is proof), and no trial shortens the pause.
    game.borrow_mut().focus_delay = Some(std::time::Duration::from_millis(30));
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert!(bot.pace().0 >= 30, "{:?}", bot.pace());
    assert_eq!(
        bot.hypotheses(),
        ["the game takes the focus late after a click"]
    );
}

#[test]
fn a_game_that_takes_the_focus_late_waits_after_clicks_not_after_keys() {
    // Kivy's text fields: a key the game takes before the click's focus change goes to
    // the cell before. The key was taken: the pause after a click grows, and keys go
    // on at the configured pace (a key after a key needs none; this used to grow
    // fourfold with the click's, and every move of a slow game paid for it).
    let (game, dir) = setup();
    // Late only once learnt, and by the game's frame (60 ms): the looks in the middle
    // of play see it.
    game.borrow_mut().focus_delay = Some(std::time::Duration::from_millis(60));
    game.borrow_mut().focus_late_from = 8;
    game.borrow_mut().focus_frames = true;
    let mut config = sim::quick_config(dir.path());
    config.delays.after_click = 10;
    config.delays.after_key = 2;
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
    let (after_click, after_key) = bot.pace();
    assert!(after_click >= 60, "{:?}", bot.pace());
    assert_eq!(after_key, 2, "{:?} {:?}", bot.pace(), bot.hypotheses());
}

#[test]
fn a_game_that_shades_the_selected_row_and_column_is_played_at_the_configured_pace() {
    // pygame's "Game Sudoku": a click shades its cell's whole row and column. The next
    // cell of the same row is shaded already, and stays as it was when clicked: the
    // click shows in the column that goes back to plain. Nothing is lost, so nothing
    // slows the game and every cell is clicked once (no clicks sent again).
    let (game, dir) = setup();
    {
        let mut g = game.borrow_mut();
        g.selection_cross = true;
        g.arrows_ignored = true;
    }
    let (mut bot, _, _) = sim::bot(&game, sim::quick_config(dir.path()), false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    assert_eq!(
        g.clicks().len(),
        empty_cells(&g.givens).len(),
        "clicks sent again"
    );
    assert!(bot.hypotheses().is_empty(), "{:?}", bot.hypotheses());
    assert_eq!(bot.pace(), (0, 0));
}

#[test]
fn a_slow_game_is_learnt_from_looks_as_long_as_it_takes_to_answer() {
    let game = solved_sim_game(|g| {
        // Every click and key shows 400 ms after it (a busy machine).
        g.latency = Some(std::time::Duration::from_millis(400));
        g.draws_selection = true;
        g.arrows_ignored = true;
    });
    let g = game.borrow();
    assert_eq!(g.board, Grid::parse(SOLUTION).unwrap());
    // Every digit typed once: no key was called lost and sent again while the game
    // was still drawing the last one.
    assert_eq!(
        g.digits().len(),
        empty_cells(&g.givens).len(),
        "{:?}",
        g.events
    );
}
