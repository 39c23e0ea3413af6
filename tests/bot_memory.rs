//! Remembering each game: a second run plays from what was learnt of the game before
//! (its input method and pace, what a click opens over the grid and how it closes, a
//! number pad picked before the cell) without learning it again; a stored model the
//! game contradicts is dropped, its file too, and the game learnt again.

use sudoku_bot_testkit as support;

use std::path::Path;

use sudoku_bot::bot::Outcome;
use sudoku_bot::Grid;
use support::scenes::*;
use support::sim::{self, Event};

/// Plays the simulated game (made what the test needs by `change`) with a bot that
/// remembers games in `state`; the game, solved.
fn solved_remembering(state: &Path, change: impl FnOnce(&mut sim::Game)) -> sim::Shared {
    let (game, dir) = setup();
    change(&mut game.borrow_mut());
    let mut config = sim::quick_config(dir.path());
    config.watch.remember = true;
    config.watch.state_dir = Some(state.to_path_buf());
    let (mut bot, _, _) = sim::bot(&game, config, false);
    let outcome = bot.run_once().unwrap();
    assert!(matches!(outcome, Outcome::Solved { .. }), "{outcome:?}");
    assert_eq!(game.borrow().board, Grid::parse(SOLUTION).unwrap());
    game
}

/// Writes `toml` as what is stored of the game keyed `key` in `state`; its path.
fn store(state: &Path, key: &str, toml: &str) -> std::path::PathBuf {
    let games = state.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let file = games.join(format!("{key}.toml"));
    std::fs::write(&file, toml).unwrap();
    file
}

/// What is stored of the game keyed `key` in `state`.
fn stored(state: &Path, key: &str) -> String {
    std::fs::read_to_string(state.join(format!("games/{key}.toml"))).unwrap_or_default()
}

/// The second run learnt nothing: learning looks at the window after each click and key
/// of its first moves, a run from the store only at the looks of play and after its
/// first click.
fn assert_fewer_looks(first: &sim::Shared, second: &sim::Shared) {
    let (first, second) = (first.borrow(), second.borrow());
    eprintln!("{} captures, then {}", first.captures, second.captures);
    assert!(
        second.captures * 3 < first.captures * 2,
        "{} captures, then {}",
        first.captures,
        second.captures
    );
}

/// Each empty cell got its digit once (no click landed on a wedge of a wheel left
/// open), and nothing went outside the game.
fn assert_each_digit_once(g: &sim::Game) {
    let digits = g.digits().len().max(g.digits_typed);
    assert_eq!(digits, empty_cells(&g.givens).len(), "{:?}", g.events);
    assert!(g.strays().is_empty(), "{:?}", g.strays());
}

#[test]
fn a_game_played_before_is_played_with_what_was_learnt_of_it_without_learning() {
    let state = tempfile::tempdir().unwrap();
    let first = solved_remembering(state.path(), |g| g.draws_selection = true);
    assert!(stored(state.path(), "gnome-sudoku-sudoku").contains("version = 2"));
    let second = solved_remembering(state.path(), |g| g.draws_selection = true);
    assert_fewer_looks(&first, &second);
    assert_each_digit_once(&second.borrow());
}

#[test]
fn a_stored_model_the_game_contradicts_is_dropped_and_the_game_learnt_again() {
    let state = tempfile::tempdir().unwrap();
    // A game the bot knows nothing of, so that clicks are what it learns and stores.
    solved_remembering(state.path(), |g| {
        g.draws_selection = true;
        g.app_name = "Kaidoku";
    });
    assert!(stored(state.path(), "kaidoku-sudoku").contains("\"click\""));
    // The same game now takes no clicks: its own cursor, moved with arrow keys, it is.
    solved_remembering(state.path(), |g| {
        g.draws_selection = true;
        g.app_name = "Kaidoku";
        g.clicks_ignored = true;
        g.selected = Some(0);
    });
    assert!(stored(state.path(), "kaidoku-sudoku").contains("\"keys\""));
}

/// The simulated game whose click opens a number wheel over the cell and its
/// neighbours, closed by a click beside the grid (`wheel`), or the same game without.
fn wheel_game(wheel: bool) -> impl FnOnce(&mut sim::Game) {
    move |g| {
        g.wheel = wheel;
        g.draws_selection = true;
        g.app_name = "Wheel-sudoku";
    }
}

#[test]
fn a_game_whose_click_opens_a_wheel_is_played_again_from_what_was_stored_without_learning() {
    let state = tempfile::tempdir().unwrap();
    let first = solved_remembering(state.path(), wheel_game(true));
    let file = stored(state.path(), "wheel-sudoku-sudoku");
    assert!(file.contains("popover = \"click-beside\""), "{file}");
    let second = solved_remembering(state.path(), wheel_game(true));
    assert_fewer_looks(&first, &second);
    let g = second.borrow();
    assert_each_digit_once(&g);
    // Closed with the stored click beside the grid after each digit: no other way of
    // closing it was tried (Escape, a look for it to close by itself).
    assert_eq!(
        g.clicks_off_grid_and_escapes(),
        (empty_cells(&g.givens).len(), 0)
    );
}

#[test]
fn a_pad_only_game_whose_pad_is_picked_first_is_played_again_without_learning() {
    let state = tempfile::tempdir().unwrap();
    let number_place = |g: &mut sim::Game| {
        g.pad_first = true;
        g.pad = Some((0..9).map(|k| [700.0, 100.0 + 55.0 * k as f32]).collect());
        g.app_name = "Number-place";
    };
    let first = solved_remembering(state.path(), number_place);
    assert!(stored(state.path(), "number-place-sudoku").contains("pad_first = true"));
    let second = solved_remembering(state.path(), number_place);
    assert_fewer_looks(&first, &second);
    let g = second.borrow();
    assert_each_digit_once(&g);
    // Learning tries a click and a key first: from the store, no key at all, and each
    // digit picked on the pad once.
    assert!(
        !g.events.iter().any(|e| matches!(e, Event::Key(_))),
        "{:?}",
        g.events
    );
    let (on_pad, _) = g.clicks_off_grid_and_escapes();
    assert!(on_pad <= 9, "{on_pad} clicks on the pad");
}

#[test]
fn a_stored_wheel_that_the_first_click_does_not_open_is_dropped_and_the_game_learnt_again() {
    let state = tempfile::tempdir().unwrap();
    solved_remembering(state.path(), wheel_game(true));
    // The same game, updated: a click only selects the cell.
    let second = solved_remembering(state.path(), wheel_game(false));
    let g = second.borrow();
    assert_each_digit_once(&g);
    // Nothing clicked beside the grid to close a wheel that is not there.
    assert_eq!(g.clicks_off_grid_and_escapes(), (0, 0));
    let file = stored(state.path(), "wheel-sudoku-sudoku");
    assert!(file.contains("popover = \"none\""), "{file}");
}

#[test]
fn a_wheel_where_none_was_stored_is_learnt_at_the_first_click_and_closed() {
    let state = tempfile::tempdir().unwrap();
    solved_remembering(state.path(), wheel_game(false));
    assert!(stored(state.path(), "wheel-sudoku-sudoku").contains("popover = \"none\""));
    // The same game, updated: a click now opens a wheel.
    let second = solved_remembering(state.path(), wheel_game(true));
    assert_each_digit_once(&second.borrow());
    let file = stored(state.path(), "wheel-sudoku-sudoku");
    assert!(file.contains("popover = \"click-beside\""), "{file}");
}

#[test]
fn a_model_stored_before_popovers_were_is_not_trusted_in_a_game_whose_click_opens_one() {
    let state = tempfile::tempdir().unwrap();
    // What an older sudoku-bot stored of a game: its method and pace, nothing of
    // popovers.
    store(
        state.path(),
        "wheel-sudoku-sudoku",
        "method = \"click\"\nshows_selection = true\nlatency = 0\nafter_click = 0\nafter_key = 0\narrows = false\n",
    );
    let game = solved_remembering(state.path(), wheel_game(true));
    assert_each_digit_once(&game.borrow());
    let file = stored(state.path(), "wheel-sudoku-sudoku");
    assert!(file.contains("version = 2"), "{file}");
    assert!(file.contains("popover = \"click-beside\""), "{file}");
}

#[test]
fn a_stored_model_whose_game_loses_a_few_digits_is_kept() {
    // sudoku-1440 (Kivy) under load: at the stored pace two digits of the first four
    // went astray; the model was dropped, and learning again in the middle of the
    // puzzle typed into the wrong cells for 100 s. Here the game loses the first digit
    // of three of the first four cells (too busy), at the stored pace.
    let state = tempfile::tempdir().unwrap();
    let file = store(
        state.path(),
        "gnome-sudoku-sudoku",
        "method = \"click\"\nshows_selection = true\nlatency = 20\nafter_click = 10\nafter_key = 2\narrows = false\nversion = 2\npopover = \"none\"\npopover_evidence = \"stored by the test\"\n",
    );
    let game = solved_remembering(state.path(), |g| {
        g.draws_selection = true;
        let first: Vec<usize> = empty_cells(&g.givens).into_iter().take(3).collect();
        g.lose_first_digit = first.into_iter().collect();
    });
    assert!(game.borrow().strays().is_empty());
    // The stored model stood: not dropped, nor learnt again and stored anew.
    let stored = std::fs::read_to_string(&file).unwrap();
    assert!(stored.contains("stored by the test"), "{stored}");
}

#[test]
fn a_keyboard_only_game_played_from_the_store_finds_its_cursor_first() {
    // nudoku under load (docs/zoo.md): played from the store, the bot took the game's
    // cursor to be where its first click went (clicks do nothing there), typed from
    // there with arrow keys, and put digits in the wrong cells until it gave up.
    let state = tempfile::tempdir().unwrap();
    let keyboard = |g: &mut sim::Game, cursor: usize| {
        g.clicks_ignored = true;
        g.draws_selection = true;
        g.selected = Some(cursor);
    };
    let first = solved_remembering(state.path(), |g| keyboard(g, 0));
    // The next game's cursor starts elsewhere (on an empty cell of row 5).
    let second = solved_remembering(state.path(), |g| keyboard(g, 38));
    let g = second.borrow();
    assert!(g.misplaced_at.is_empty(), "{:?}", g.misplaced_at);
    assert_eq!(
        g.digits().len(),
        empty_cells(&g.givens).len(),
        "digits typed again"
    );
    assert_fewer_looks(&first, &second);
}
