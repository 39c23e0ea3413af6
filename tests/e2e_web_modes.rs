//! End to end with the web game's modes (games/web/sudoku.html): games that answer in
//! other ways than GNOME Sudoku. Each test is judged by the game's own title, which
//! keeps score: `Web Sudoku - Solved K, mistakes M` once the K-th puzzle is solved, with
//! M the wrong entries the game counted (never what the bot prints).
//!
//! Skipped (loudly) only when Xvfb is not installed and CI is unset.
//!
use sudoku_bot_testkit as support;

use std::process::{Child, Stdio};
use std::time::Duration;

use support::desktop::{self, Desktop};

/// Plays the game in `window` once (`--once`), and returns the bot's stderr
/// and whether it exited 0.
fn play_once(desk: &mut Desktop, window: &str, config: &str) -> (String, bool) {
    let out = desk.bot_once("Web Sudoku", config);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    // Shown with --nocapture: what the bot learnt and how long it took.
    eprintln!("{stderr}");
    if let Ok(dir) = std::env::var("SUDOKU_BOT_E2E_SHOTS") {
        let test = std::thread::current().name().unwrap_or(window).to_string();
        desk.screenshot(&std::path::Path::new(&dir).join(format!("modes-{test}.png")));
    }
    (stderr, out.status.success())
}

/// Waits up to `seconds` for the game's title to pass `good`: whether it did, and the
/// last title seen.
fn wait_for_title(
    desk: &Desktop,
    window: &str,
    seconds: u64,
    good: impl Fn(&str) -> bool,
) -> (bool, String) {
    let mut title = String::new();
    let ok = (0..seconds * 10).any(|_| {
        title = desk.window_title(window);
        if good(&title) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
        false
    });
    (ok, title)
}

/// Waits until the game's title is `want`; panics with the title seen and `log`.
fn title_becomes(desk: &mut Desktop, window: &str, want: &str, seconds: u64, log: &str) {
    let (ok, title) = wait_for_title(desk, window, seconds, |t| t == want);
    assert!(ok, "title is {title:?}, not {want:?}; the bot said:\n{log}");
}

/// Starts the page, plays one puzzle with `--once`, and checks the game's title; the
/// bot's stderr, or `None` when the test was skipped (no Xvfb, outside CI).
fn plays(query: &str, width: u32, height: u32, want_title: &str) -> Option<String> {
    let mut desk = desktop::start()?;
    let _turn = desktop::browser_turn();
    let window = desk.start_web_sudoku(query, width, height);
    let (stderr, ok) = play_once(&mut desk, &window, "");
    assert!(ok, "bot failed on {query}: {stderr}");
    title_becomes(&mut desk, &window, want_title, 5, &stderr);
    Some(stderr)
}

/// Starts the page, plays one puzzle with `--once`, waits for the game to count it
/// solved, and returns the bot's stderr and the mistakes the game counted (`None`:
/// skipped).
fn plays_counting_mistakes(query: &str, width: u32, height: u32) -> Option<(String, u32)> {
    let mut desk = desktop::start()?;
    let _turn = desktop::browser_turn();
    let window = desk.start_web_sudoku(query, width, height);
    let (stderr, ok) = play_once(&mut desk, &window, "");
    assert!(ok, "bot failed on {query}: {stderr}");
    let (solved, title) = wait_for_title(&desk, &window, 5, |t| {
        t.starts_with("Web Sudoku - Solved 1, mistakes ")
    });
    assert!(solved, "title {title:?}; the bot said:\n{stderr}");
    let mistakes = title.rsplit(' ').next().unwrap().parse().unwrap();
    Some((stderr, mistakes))
}

/// Plays the page (`query`, a window `width` x 620) once, checks the game counts it
/// solved with no mistakes, and that the bot said each of `phrases` (skipped: no Xvfb).
fn solved_without_mistakes_saying(query: &str, width: u32, phrases: &[&str]) {
    let Some(stderr) = plays(query, width, 620, "Web Sudoku - Solved 1, mistakes 0") else {
        return;
    };
    for phrase in phrases {
        assert!(stderr.contains(phrase), "no {phrase:?} in:\n{stderr}");
    }
}

#[test]
fn a_game_that_changes_an_entered_digit_is_fixed_and_its_window_says_solved() {
    // The game turns the 10th digit into a wrong one and, once the grid is full, opens
    // a window saying whether it is right.
    let Some(stderr) = plays(
        "theme=flat&cell=40&tamper=1&verdict=window",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    ) else {
        return;
    };
    assert!(stderr.contains("other than the one typed"), "{stderr}");
}

#[test]
fn a_puzzle_with_several_solutions_is_played_to_a_valid_grid() {
    let Some(stderr) = plays(
        "theme=flat&cell=40&accept=any&puzzle=53..7....6..195....98....6.8...6...34..8.3..17.......6.6....28....419..5....8..79",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    ) else {
        return;
    };
    assert!(stderr.contains("more than one solution"), "{stderr}");
}

#[test]
fn digits_that_fade_in_over_200_ms_end_solved_with_no_mistakes() {
    plays(
        "theme=flat&cell=40&fade=200&accept=any",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    );
}

#[test]
fn cells_that_are_text_fields_with_a_caret_are_read_past_it() {
    let Some(stderr) = plays(
        "theme=flat&cell=40&cells=input&accept=any",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    ) else {
        return;
    };
    assert!(stderr.contains("solved: entered"), "{stderr}");
}

#[test]
fn a_game_whose_click_enters_the_palette_digit_is_learnt_and_played_with_keys() {
    // A click on an empty cell enters the palette's chosen digit (1). The bot's first
    // click shows it that (one wrong entry the game counts, put right by the key that
    // follows); it plays the rest with arrow keys.
    let Some((stderr, mistakes)) =
        plays_counting_mistakes("theme=flat&cell=40&click=palette&accept=any", 760, 620)
    else {
        return;
    };
    assert!(
        mistakes <= 1,
        "{mistakes} mistakes: the bot said:\n{stderr}"
    );
    assert!(
        stderr.contains("learnt: a click on an empty cell enters a digit"),
        "{stderr}"
    );
}

#[test]
fn a_cell_that_takes_the_focus_50_ms_after_the_click_gets_every_digit() {
    // The game selects the clicked cell 50 ms after the click: a key sooner goes to the
    // cell selected before (a wrong entry the game counts).
    let Some(stderr) = plays(
        "theme=flat&cell=40&focus=50&accept=any",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    ) else {
        return;
    };
    assert!(stderr.contains("learnt:"), "{stderr}");
}

#[test]
fn a_game_that_ignores_input_for_300_ms_after_each_move_is_solved() {
    plays(
        "theme=flat&cell=40&lag=300&accept=any",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    );
}

#[test]
fn a_keyboard_only_game_is_played_with_arrows_from_its_own_cursor() {
    // No mouse: clicks do nothing, and the game's cursor starts at r1c1.
    let Some(stderr) = plays(
        "theme=flat&cell=40&mouse=off&accept=any",
        600,
        620,
        "Web Sudoku - Solved 1, mistakes 0",
    ) else {
        return;
    };
    assert!(stderr.contains("learnt:"), "{stderr}");
}

#[test]
fn a_game_that_takes_digits_only_from_its_number_pad_is_played_with_the_pad() {
    // The keyboard does nothing; a click on a cell then on a pad button enters a digit.
    solved_without_mistakes_saying(
        "theme=flat&cell=40&pad=right&keys=off&accept=any",
        760,
        &["its number pad enters digits"],
    );
}

#[test]
fn a_number_wheel_a_click_opens_over_the_grid_is_closed_after_each_digit() {
    // A click on an empty cell opens a wheel of nine wedges around it, three cells
    // wide, which stays open after a digit: a click on a neighbour would land on a
    // wedge and put its digit in the wrong cell (a mistake the game counts).
    solved_without_mistakes_saying(
        "theme=flat&cell=40&click=wheel&accept=any",
        600,
        &[
            "opens something over the grid",
            "closes what a click opens over the grid",
        ],
    );
}

#[test]
fn a_pad_only_game_with_a_colour_filled_selection_and_a_win_banner_on_a_row_is_solved() {
    // Keys do nothing, the selected cell is filled with colour (no frame), digits go
    // in from the pad only, and once solved a banner covers the grid's last row.
    solved_without_mistakes_saying(
        "theme=flat&cell=40&pad=right&keys=off&selection=fill&win=banner&accept=any",
        760,
        &["its number pad enters digits", "Puzzle solved"],
    );
}

#[test]
fn a_game_that_checks_entries_against_its_own_solution_gets_that_solution() {
    // Four solutions; the game stores one, marks other entries red and counts them as
    // mistakes, and its window says whether the full grid is its solution.
    plays_counting_mistakes(
        "theme=flat&cell=40&accept=stored&verdict=window&puzzle=53..7....6..195....98....6.8...6...34..8.3..17.......6.6....28....419..5....8..79&solution=534678912672195348198342567829761453456823791713954826961537284287419635345286179",
        600,
        620,
    );
}

/// Starts the bot as a daemon (no `--once`).
fn watch(desk: &Desktop) -> Child {
    desk.command(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args(["--window", "Web Sudoku", "-v"])
        .current_dir(desk.dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bot")
}

/// Ends the daemon with Ctrl+C; its stderr, after checking it exited 0.
fn stop(desk: &Desktop, bot: Child) -> String {
    desk.run("kill", &["-INT", &bot.id().to_string()]);
    let out = bot.wait_with_output().expect("bot exit");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

#[test]
fn the_watch_plays_three_puzzles_in_a_row_under_a_well_done_banner() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let _turn = desktop::browser_turn();
    // Each solved puzzle gets a "Well done!" banner over rows 4-6 for 1.5 s, then the
    // next puzzle is dealt in the same page.
    let window = desk.start_web_sudoku("theme=flat&cell=40&series=3", 600, 620);
    let bot = watch(&desk);
    let (done, title) = wait_for_title(&desk, &window, 60, |t| {
        t == "Web Sudoku - Solved 3, mistakes 0"
    });
    // A moment more: the bot must not type into the solved grid.
    std::thread::sleep(Duration::from_millis(1500));
    let after = desk.window_title(&window);
    let stderr = stop(&desk, bot);
    assert!(done, "title {title:?} after 60 s; the bot said:\n{stderr}");
    assert_eq!(after, "Web Sudoku - Solved 3, mistakes 0", "{stderr}");
    // The daemon says each puzzle's end on a line of its own, -v or not.
    let said = stderr
        .lines()
        .filter(|l| l.starts_with("sudoku-bot: solved"))
        .count();
    assert_eq!(said, 3, "one line a solved puzzle:\n{stderr}");
}

#[test]
fn the_watch_plays_the_game_again_after_its_window_closed_and_opened() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let _turn = desktop::browser_turn();
    let first = desk.start_web_sudoku("theme=flat&cell=40", 600, 620);
    let bot = watch(&desk);
    let solved =
        |desk: &Desktop, w: &str| wait_for_title(desk, w, 30, |t| t == "Web Sudoku - Solved").0;
    let first_solved = solved(&desk, &first);
    // The user closes the game and opens it again: a fresh page with the same puzzle.
    desk.kill_newest();
    std::thread::sleep(Duration::from_millis(1000));
    let second = desk.start_web_sudoku("theme=dark&cell=40", 600, 620);
    let second_solved = solved(&desk, &second);
    let stderr = stop(&desk, bot);
    assert!(first_solved, "first window not solved:\n{stderr}");
    assert!(
        second_solved,
        "the reopened window was not solved:\n{stderr}"
    );
    assert!(stderr.contains("window closed"), "{stderr}");
}
