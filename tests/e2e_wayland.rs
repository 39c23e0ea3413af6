//! End to end on GNOME's Wayland, with no screen: headless Mutter, PipeWire and
//! WirePlumber in a private D-Bus session, GNOME Sudoku as a native Wayland client. The
//! built binary picks its gnome-wayland backend from the session, captures through
//! Mutter's ScreenCast and plays through its RemoteDesktop; the test judges the game
//! by its own screenshots (from Mutter): GNOME Sudoku's completion dialog over the
//! grid, and no digit left to fill once that dialog is closed. A dry run leaves the
//! screen as it was.
//!
//! The same under headless GNOME Shell (in unsafe mode, so that its window list,
//! org.gnome.Shell.Introspect, answers): the bot finds the game by title there.
//!
//! Skipped (loudly) when mutter (or gnome-shell), pipewire or wireplumber is not
//! installed and CI is not set; on CI it must run.

use sudoku_bot_testkit as support;

use std::time::{Duration, Instant};

use support::wayland;

/// GNOME Sudoku's own Easy puzzles (scripts/fixtures/gnome-puzzles.txt).
const EASY: [&str; 2] = [
    "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2",
    "1....5.898..21......579.4..4.....97..67...53..19.....8..3.598......62..794.8....5",
];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Pixels that differ between two pictures of the same size.
fn differing(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    assert_eq!(a.dimensions(), b.dimensions());
    a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count()
}

/// The bounding box (x0, y0, x1, y1) of the pixels that differ, if any.
fn changed_box(a: &image::RgbaImage, b: &image::RgbaImage) -> Option<(u32, u32, u32, u32)> {
    a.enumerate_pixels()
        .filter(|(x, y, p)| b.get_pixel(*x, *y) != *p)
        .fold(None, |acc, (x, y, _)| match acc {
            None => Some((x, y, x, y)),
            Some((x0, y0, x1, y1)) => Some((x0.min(x), y0.min(y), x1.max(x), y1.max(y))),
        })
}

/// The box (x0, y0, x1, y1) around the grid `sudoku-bot read --json` finds.
fn grid_box(desk: &wayland::WaylandDesktop, picture: &std::path::Path) -> (u32, u32, u32, u32) {
    let out = desk
        .command(env!("CARGO_BIN_EXE_sudoku-bot"))
        .arg("read")
        .arg("--json")
        .arg(picture)
        .output()
        .expect("sudoku-bot read --json");
    let doc: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("read's JSON");
    let corners = doc["corners"].as_array().expect("corners");
    let xs = corners.iter().map(|c| c["x"].as_f64().unwrap_or(0.0));
    let ys = corners.iter().map(|c| c["y"].as_f64().unwrap_or(0.0));
    let (x0, x1) = xs.fold((f64::MAX, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
    let (y0, y1) = ys.fold((f64::MAX, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
    (x0 as u32, y0 as u32, x1 as u32, y1 as u32)
}

/// Where a dry run's move line (`r1c2=9 at (199,129)`) clicks.
fn move_at(line: &str) -> (i64, i64) {
    let (x, y) = line
        .split_once(" at (")
        .and_then(|(_, at)| at.trim_end_matches(')').split_once(','))
        .unwrap_or_else(|| panic!("bad move line {line:?}"));
    (x.parse().expect("X"), y.parse().expect("Y"))
}

#[test]
fn plays_an_easy_puzzle_until_gnome_sudoku_says_solved() {
    let Some(mut desk) = wayland::start() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);

    let start = Instant::now();
    let out = desk.bot(&["--window", "Sudoku", "--once", "-v"]);
    let took = start.elapsed();
    let stderr = text(&out.stderr);
    eprintln!("sudoku-bot ({}):\n{stderr}", out.status);
    let shots = std::env::var("SUDOKU_BOT_E2E_SHOTS").ok();
    if let Some(dir) = &shots {
        let _ = desk
            .screenshot()
            .save(std::path::Path::new(dir).join("wayland-at-exit.png"));
    }
    assert!(
        stderr.contains("backend gnome-wayland"),
        "-v names the backend: {stderr}"
    );

    desk.assert_game_says_solved(&out, "wayland-after");
    let last_key = stderr
        .lines()
        .find(|l| l.contains("last keystroke"))
        .unwrap_or("");
    eprintln!(
        "GNOME Sudoku Easy under headless Mutter: bot launch to exit {} ms; {last_key}",
        took.as_millis()
    );
}

#[test]
fn gnome_shell_window_list_finds_the_game_by_title_and_it_is_played() {
    let Some(mut desk) = wayland::start_shell() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);
    // Where GNOME Shell has the game's frame: x, y, width, height.
    let frame = desk
        .shell_eval(
            "(r => [r.x, r.y, r.width, r.height])(global.get_window_actors().map(a => a.meta_window).find(w => w.title === 'Sudoku').get_frame_rect())",
        )
        .expect("the game's frame from GNOME Shell");
    let frame: Vec<i64> = serde_json::from_str(&frame).expect("four numbers");

    // A title that matches nothing: one line naming the windows open.
    let out = desk.bot(&["--window", "No Such Game", "--once"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("no window matches \"No Such Game\"")
            && stderr.contains(&format!(
                "windows open: \"Sudoku\" (gnome-sudoku, {}x{})",
                frame[2], frame[3]
            )),
        "{stderr}"
    );

    // A dry run has no pointer to place the window with: it records the window alone,
    // and its moves are in the window's own picture.
    let out = desk.bot(&["--window", "Sudoku", "--once", "--dry-run", "-v"]);
    let stderr = text(&out.stderr);
    assert!(
        out.status.success() && stderr.contains("a dry run records the window alone"),
        "{stderr}"
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().count(),
        52,
        "one move per empty cell: {stdout}"
    );
    for m in stdout.lines() {
        let (x, y) = move_at(m);
        assert!(x < frame[2] && y < frame[3], "{m} is outside the window");
    }

    let start = Instant::now();
    let out = desk.bot(&["--window", "Sudoku", "--once", "-v"]);
    let took = start.elapsed();
    let stderr = text(&out.stderr);
    eprintln!("sudoku-bot ({}):\n{stderr}", out.status);
    // Found by its title in the Shell's list, and placed where the Shell has it.
    let placed = format!(
        "playing window \"Sudoku\" (gnome-sudoku, {}x{} at {},{}) (found in GNOME Shell's window list, placed on the monitor by the pointer)",
        frame[2], frame[3], frame[0], frame[1]
    );
    assert!(
        stderr.contains("matches \"Sudoku\" by exact title") && stderr.contains(&placed),
        "expected {placed:?} in: {stderr}"
    );
    assert!(!stderr.contains("no window list"), "{stderr}");
    desk.assert_game_says_solved(&out, "wayland-after");

    // Out of unsafe mode (as GNOME Shell runs on a desktop) the window list refuses the
    // bot: it says so in one line and looks at the whole monitor instead.
    let safe = desk.shell_eval("global.context.unsafe_mode = false");
    assert_eq!(
        safe.as_deref(),
        Some("false"),
        "GNOME Shell left unsafe mode"
    );
    let out = desk.bot(&["--window", "Sudoku", "--once", "--dry-run", "-v"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no window list in this session")
            && stderr.contains("playing the primary monitor"),
        "{stderr}"
    );
    eprintln!(
        "GNOME Sudoku Easy under headless GNOME Shell: bot launch to exit {} ms",
        took.as_millis()
    );
}

#[test]
fn dry_run_prints_the_moves_and_leaves_the_screen_unchanged() {
    let Some(mut desk) = wayland::start() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[1]);
    let before = desk.screenshot();
    if let Ok(dir) = std::env::var("SUDOKU_BOT_E2E_SHOTS") {
        let _ = before.save(std::path::Path::new(&dir).join("wayland-before.png"));
    }

    let out = desk.bot(&["--window", "Sudoku", "--once", "--dry-run", "-v"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "dry run failed: {stderr}");
    let stdout = text(&out.stdout);
    let moves: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        moves.len(),
        EASY[1].matches('.').count(),
        "one move per empty cell: {stdout}"
    );
    for m in &moves {
        let (x, y) = move_at(m);
        assert!(x < 1280 && y < 1024, "{m} is off the monitor");
    }

    std::thread::sleep(Duration::from_millis(300));
    let after = desk.screenshot();
    let path = desk.dir.path().join("after-dry-run.png");
    after.save(&path).expect("save");
    assert_eq!(desk.read(&path), EASY[1], "the grid changed");
    // Nothing changed but, perhaps, GNOME Sudoku's clock in its header bar: no pixel
    // of the grid or below it.
    let grid_top = grid_box(&desk, &path).1;
    if let Some((x0, y0, x1, y1)) = changed_box(&before, &after) {
        assert!(
            y1 < grid_top && x1 - x0 < 80 && y1 - y0 < 30,
            "the dry run changed the screen at ({x0},{y0})-({x1},{y1}), {} pixels; the grid starts at y {grid_top}",
            differing(&before, &after)
        );
    }
}

#[test]
fn user_moving_the_mouse_stops_the_bot() {
    let Some(mut desk) = wayland::start() else {
        return;
    };
    desk.start_gnome_sudoku(EASY[0]);
    // Slow the bot down so there is time to interfere.
    std::fs::write(
        desk.dir.path().join("config.toml"),
        "[delays]\nafter_click = 60\nafter_key = 60\nshorten = false\n",
    )
    .expect("config");
    let mut bot = desk
        .wayland_command(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args([
            "--window",
            "Sudoku",
            "--once",
            "-v",
            "--config",
            "config.toml",
        ])
        .current_dir(desk.dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the bot");
    let mut stderr = String::new();
    let lines = std::io::BufRead::lines(std::io::BufReader::new(bot.stderr.take().unwrap()));
    let mut hand = None;
    for line in lines.map_while(Result::ok) {
        stderr.push_str(&line);
        stderr.push('\n');
        if hand.is_none() && line.contains("cells to fill") {
            // A few moves in, a second RemoteDesktop session (the user's hand) moves
            // the pointer near the corner.
            std::thread::sleep(Duration::from_millis(1500));
            use sudoku_bot::wayland::{session_bus, MutterSession, Target};
            let bus = session_bus().expect("bus");
            let session =
                MutterSession::start(&bus, &Target::PrimaryMonitor, true).expect("session");
            // A hand moves the mouse for a while, not in one jump (a single jump can
            // fall between two of Mutter's frames and be drawn over by the bot's next
            // move).
            for step in 0..15 {
                let t = step as f64;
                session
                    .pointer_to(5.0 + 4.0 * t, 5.0 + 3.0 * t)
                    .expect("move the pointer");
                std::thread::sleep(Duration::from_millis(20));
            }
            hand = Some(session);
        }
    }
    let out = bot.wait_with_output().expect("bot exit");
    eprintln!("sudoku-bot ({}):\n{stderr}", out.status);
    assert!(hand.is_some(), "the bot never started playing: {stderr}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the mouse moved") && stderr.contains("took over"),
        "{stderr}"
    );
    // The game is not finished: no completion dialog, the grid still reads.
    let path = desk.screenshot_to("stopped.png");
    let grid = desk.read(&path);
    assert_eq!(grid.len(), 81, "the grid no longer reads");
    assert!(grid.contains('.'), "the bot finished the game anyway");
}

#[test]
fn other_wayland_compositors_get_one_line_naming_what_is_supported() {
    // Needs no desktop: the backend is chosen before anything is opened. No sway socket,
    // no session bus, no Wayland display to find wlroots' globals on.
    for desktop in ["Hyprland", "weston"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
            .args(["--window", "Sudoku", "--once"])
            .env("XDG_SESSION_TYPE", "wayland")
            .env("WAYLAND_DISPLAY", "no-such-wayland-display")
            .env("XDG_CURRENT_DESKTOP", desktop)
            .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
            .env_remove("SWAYSOCK")
            .env_remove("DISPLAY")
            .output()
            .expect("run sudoku-bot");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(desktop)
                && stderr.contains("X11")
                && stderr.contains("Mutter")
                && stderr.contains("wlroots"),
            "{stderr}"
        );
    }
}
