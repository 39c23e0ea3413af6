//! Launch to last key on the other Wayland desktops: GNOME Sudoku Easy under headless
//! sway and KWin, as a native Wayland client and as an X11 client under the
//! compositor's Xwayland, 5 runs each; prints the benchmark table (medians, every run,
//! the load average before and after each case).
//!
//! Run: `cargo bench --bench desktops` (all four cases), or name cases:
//! `cargo bench --bench desktops -- kwin-native sway-xwayland`. `RUNS=3` changes the
//! number of runs; `BOT_ARGS="-vv"` passes more options to the bot and prints its log
//! (timings on each line). Each run is a fresh desktop and a fresh home: the bot is a
//! first-time user of the game each time (it learns how the game takes digits). A run
//! counts as solved only when the bot exits 0 quoting the game and GNOME Sudoku's "Well
//! done" is read from the compositor's own screenshot.

use std::time::Duration;

use sudoku_bot_testkit::wayland::{self, WaylandDesktop};

/// GNOME Sudoku's own Easy puzzles (scripts/fixtures/gnome-puzzles.txt).
const EASY: [&str; 2] = [
    "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2",
    "1....5.898..21......579.4..4.....97..67...53..19.....8..3.598......62..794.8....5",
];

struct Case {
    name: &'static str,
    title: &'static str,
    start: fn() -> Option<WaylandDesktop>,
    xwayland: bool,
}

const CASES: [Case; 4] = [
    Case {
        name: "sway-native",
        title: "sway, native Wayland",
        start: wayland::start_sway,
        xwayland: false,
    },
    Case {
        name: "sway-xwayland",
        title: "sway, X11 under Xwayland",
        start: wayland::start_sway,
        xwayland: true,
    },
    Case {
        name: "kwin-native",
        title: "KWin, native Wayland",
        start: wayland::start_kwin,
        xwayland: false,
    },
    Case {
        name: "kwin-xwayland",
        title: "KWin, X11 under Xwayland",
        start: wayland::start_kwin,
        xwayland: true,
    },
];

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').next().unwrap_or("?").to_string())
        .unwrap_or_else(|_| "?".into())
}

fn median(values: &mut [u64]) -> Option<u64> {
    values.sort_unstable();
    (!values.is_empty()).then(|| values[values.len() / 2])
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let extra = std::env::var("BOT_ARGS").unwrap_or_default();
    let mut args: Vec<&str> = vec!["-v"];
    args.extend(extra.split_whitespace());
    let mut rows = Vec::new();
    for case in CASES
        .iter()
        .filter(|c| wanted.is_empty() || wanted.iter().any(|w| w == c.name))
    {
        let before = load();
        let (mut keys, mut exits, mut solved) = (Vec::new(), Vec::new(), 0);
        for run in 0..runs {
            let Some(mut desk) = (case.start)() else {
                return;
            };
            desk.start_gnome_sudoku_on(EASY[run % 2], case.xwayland);
            let timed = desk.play_timed(&args);
            let verdict = desk.judge(&timed.out, &format!("{}-{run}", case.name));
            if !extra.is_empty() {
                eprintln!("{}", String::from_utf8_lossy(&timed.out.stderr));
            }
            match &verdict {
                Ok(()) => solved += 1,
                Err(why) => eprintln!("{} run {}: not solved: {why}", case.name, run + 1),
            }
            eprintln!(
                "{} run {}: last key {} ms, exit {} ms, {}",
                case.name,
                run + 1,
                timed.last_key_ms.map_or("-".into(), |k| k.to_string()),
                timed.exit.as_millis(),
                if verdict.is_ok() {
                    "solved"
                } else {
                    "NOT solved"
                }
            );
            keys.extend(timed.last_key_ms);
            exits.push(timed.exit.as_millis() as u64);
            drop(desk);
            std::thread::sleep(Duration::from_millis(300));
        }
        let each = keys
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        rows.push(format!(
            "| {} | {solved}/{runs} | {} ms | {each} | {} ms | {before}-{} |",
            case.title,
            median(&mut keys).map_or("-".into(), |m| m.to_string()),
            median(&mut exits).map_or("-".into(), |m| m.to_string()),
            load()
        ));
    }
    println!("| desktop, GNOME Sudoku Easy | solved | launch to last key, median | each run (ms) | launch to exit, median | load average (1 min, before-after) |");
    println!("|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}
