//! End to end with the real GNOME Sudoku 43 under Xvfb: the built binary finds the
//! window, reads the puzzle, plays it with synthetic input, and the game itself says it
//! is solved (its "Well done" dialog opens). Also the dry run, and the errors a user
//! meets first: a window that does not exist, a bad configuration file.
//!
//! Skipped (loudly) only when Xvfb is not installed.

use sudoku_bot_testkit as support;

use std::time::Instant;

use support::desktop;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn plays_an_easy_puzzle_until_the_game_says_solved() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    assert!(
        desk.dialogs_of(&window).is_empty(),
        "a dialog is open before playing"
    );

    let start = Instant::now();
    let out = desk.bot(&["--window", "Sudoku", "--once", "-v"]);
    let took = start.elapsed();
    let stderr = text(&out.stderr);
    let shot = desk.dir.path().join("after.png");
    desk.screenshot(&shot);
    assert!(
        out.status.success(),
        "bot failed ({:?}): {stderr}",
        out.status
    );

    // The game's own verdict: GNOME Sudoku opens its completion dialog only when the
    // board is full and right.
    let mut dialogs = Vec::new();
    desk.wait_until(
        std::time::Duration::from_secs(5),
        "GNOME Sudoku's completion dialog",
        |d| {
            dialogs = d.dialogs_of(&window);
            !dialogs.is_empty()
        },
    );
    // The bot says "solved" with its evidence: GNOME's dialog, read ("Well done, you
    // completed the puzzle ..."), or the grid read again.
    assert!(
        stderr.contains("solved: entered")
            && (stderr.contains("Well done") || stderr.contains("the grid reads as the solution")),
        "{stderr}"
    );
    let solved_line = stderr
        .lines()
        .find(|l| l.contains("solved: entered"))
        .unwrap_or("");
    eprintln!("GNOME Sudoku Easy: {solved_line}");
    let entered = stderr
        .lines()
        .find(|l| l.contains("entered") && l.contains(" ms"))
        .unwrap_or("");
    eprintln!(
        "GNOME Sudoku Easy: bot launch to exit {} ms; {entered}",
        took.as_millis()
    );
    // Everything the bot said, with SUDOKU_BOT_E2E_LOG set (and RUST_LOG for detail).
    if std::env::var_os("SUDOKU_BOT_E2E_LOG").is_some() {
        eprintln!("{stderr}");
    }
    // What it learnt of the game and when the last key went (shown with --nocapture).
    for line in stderr.lines().filter(|l| {
        ["learnt", "keeps up", "keep up", "pace:", "last keystroke"]
            .iter()
            .any(|w| l.contains(w))
    }) {
        eprintln!("GNOME Sudoku Easy: {line}");
    }
    // Keep the final screen for people to look at when asked.
    if let Ok(dir) = std::env::var("SUDOKU_BOT_E2E_SHOTS") {
        let _ = std::fs::copy(
            &shot,
            std::path::Path::new(&dir).join("gnome-sudoku-after.png"),
        );
    }
}

#[test]
fn dry_run_prints_one_move_per_empty_cell_and_touches_nothing() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    let before = desk.dir.path().join("before.png");
    desk.window_shot(&window, &before);

    let out = desk.bot(&["--window", "Sudoku", "--once", "--dry-run"]);
    assert!(
        out.status.success(),
        "dry run failed: {}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    let moves: Vec<&str> = stdout.lines().collect();

    // As many moves as the picture has empty cells, each `rRcC=D at (X,Y)` with X,Y
    // inside the game window.
    let read = desk.bot(&["read", before.to_str().unwrap()]);
    let puzzle = text(&read.stdout).lines().next().unwrap_or("").to_string();
    assert_eq!(
        puzzle.len(),
        81,
        "could not read the puzzle back: {}",
        text(&read.stderr)
    );
    assert_eq!(moves.len(), puzzle.matches('.').count(), "{stdout}");
    let geometry = text(&desk.run("xdotool", &["getwindowgeometry", &window]).stdout);
    let (wx, wy, ww, wh) = parse_geometry(&geometry);
    for m in &moves {
        let (cell, at) = m
            .split_once(" at ")
            .unwrap_or_else(|| panic!("bad move line {m:?}"));
        assert!(
            cell.len() == 6 && cell.starts_with('r') && &cell[2..3] == "c" && &cell[4..5] == "=",
            "{m}"
        );
        let (x, y) = at
            .trim_matches(|c| c == '(' || c == ')')
            .split_once(',')
            .expect("(X,Y)");
        let (x, y): (i32, i32) = (x.parse().expect("X"), y.parse().expect("Y"));
        assert!(
            x > wx && x < wx + ww && y > wy && y < wy + wh,
            "{m} is outside the window {geometry}"
        );
    }

    // Untouched: the grid looks the same, and no cell got a digit.
    let after = desk.dir.path().join("after.png");
    desk.window_shot(&window, &after);
    let read_after = desk.bot(&["read", after.to_str().unwrap()]);
    assert_eq!(
        text(&read_after.stdout).lines().next().unwrap_or(""),
        puzzle
    );
    let (a, b) = (
        image::open(&before).unwrap().to_rgba8(),
        image::open(&after).unwrap().to_rgba8(),
    );
    // Below the header bar (its clock ticks), every pixel is unchanged.
    let differing = (60..a.height().min(b.height()))
        .flat_map(|y| (0..a.width().min(b.width())).map(move |x| (x, y)))
        .filter(|&(x, y)| a.get_pixel(x, y) != b.get_pixel(x, y))
        .count();
    assert_eq!(differing, 0, "the dry run changed the game window");
}

#[test]
fn missing_window_and_bad_config_are_clear_errors() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    desk.start_gnome_sudoku_easy();

    let out = desk.bot(&["--window", "Solitaire", "--once"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no window matches \"Solitaire\""),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"Sudoku\""),
        "the message should list the windows open: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one sentence: {stderr}");

    let config = desk.dir.path().join("bad.toml");
    std::fs::write(&config, "[delays]\nafter_click = 10\nspeed = \"max\"\n").unwrap();
    let out = desk.bot(&[
        "--window",
        "Sudoku",
        "--once",
        "--config",
        config.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.toml line 3") && stderr.contains("speed"),
        "{stderr}"
    );
    // Refused before touching anything: the game has no digit entered and no dialog.
    let windows = desk.bot(&["windows"]);
    let listing = text(&windows.stdout);
    assert!(
        listing
            .lines()
            .any(|l| l.starts_with("Sudoku\tGnome-sudoku\t")),
        "{listing}"
    );
    // The same list as JSON only, the backend named after the subcommand.
    let windows = desk.bot(&["windows", "--json", "--backend", "x11"]);
    let doc: serde_json::Value =
        serde_json::from_slice(&windows.stdout).expect("windows --json prints only JSON");
    let game = doc
        .as_array()
        .expect("an array of windows")
        .iter()
        .find(|w| w["title"] == "Sudoku")
        .unwrap_or_else(|| panic!("the game in windows --json: {doc}"));
    assert_eq!(game["app"], "Gnome-sudoku", "{game}");
    assert!(
        game["x"].is_i64() && game["width"].as_u64() > Some(100),
        "{game}"
    );
}

#[test]
fn user_moving_the_mouse_stops_the_bot() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    let window = desk.start_gnome_sudoku_easy();
    // Slow the bot down so there is time to interfere.
    let config = desk.dir.path().join("slow.toml");
    std::fs::write(
        &config,
        "[delays]\nafter_click = 60\nafter_key = 60\nafter_arrow = 60\nshorten = false\n",
    )
    .unwrap();
    let mut bot = desk
        .command(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args([
            "--window",
            "Sudoku",
            "--once",
            "-v",
            "--config",
            config.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the bot");
    // Once the bot says it starts playing, give it a few moves, then grab the mouse.
    let mut stderr = String::new();
    let lines = std::io::BufRead::lines(std::io::BufReader::new(bot.stderr.take().unwrap()));
    let mut moved = false;
    for line in lines.map_while(Result::ok) {
        stderr.push_str(&line);
        stderr.push('\n');
        if !moved && line.contains("cells to fill") {
            // With these delays the game takes the bot about 6 s.
            std::thread::sleep(std::time::Duration::from_millis(1500));
            desk.run("xdotool", &["mousemove", "5", "5"]);
            moved = true;
        }
    }
    let out = bot.wait_with_output().expect("bot exit");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the mouse moved") && stderr.contains("took over"),
        "{stderr}"
    );
    assert!(
        desk.dialogs_of(&window).is_empty(),
        "the bot finished the game anyway"
    );
}

/// `Position: 270,169 (screen: 0)` / `Geometry: 740x686` from xdotool.
fn parse_geometry(text: &str) -> (i32, i32, i32, i32) {
    let mut nums = text
        .split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter(|s| !s.is_empty() && *s != "-")
        .filter_map(|s| s.parse::<i32>().ok());
    let _id = nums.next();
    let (x, y) = (nums.next().unwrap(), nums.next().unwrap());
    let _screen = nums.next();
    (x, y, nums.next().unwrap(), nums.next().unwrap())
}

#[test]
fn watching_ends_cleanly_on_ctrl_c() {
    let Some(mut desk) = desktop::start() else {
        return;
    };
    desk.start_gnome_sudoku_easy();
    // Without --once the bot watches for ever; a dry run prints the puzzle's moves once.
    let bot = desk
        .command(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args(["--window", "Sudoku", "--dry-run"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the bot");
    let pid = bot.id().to_string();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    desk.run("kill", &["-INT", &pid]);
    let out = bot.wait_with_output().expect("bot exit");
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "Ctrl+C should end the watch cleanly: {}",
        text(&out.stderr)
    );
    assert!(
        stdout.lines().count() > 20
            && stdout
                .lines()
                .all(|l| l.contains('=') && l.contains(" at (")),
        "{stdout}"
    );
    // Printed once, not again on every look at the unchanged window.
    let mut lines: Vec<&str> = stdout.lines().collect();
    let total = lines.len();
    lines.sort_unstable();
    lines.dedup();
    assert_eq!(lines.len(), total, "moves printed twice:\n{stdout}");
    // The daemon speaks without -v: a line when it starts (window, backend, config
    // file) and one when it stops.
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("watching window \"Sudoku\" on x11 (no configuration file)"),
        "{stderr}"
    );
    assert!(stderr.contains("stopped watching \"Sudoku\""), "{stderr}");
}
