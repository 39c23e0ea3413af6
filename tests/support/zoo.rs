//! Running one game of the zoo (`scripts/zoo.sh`, docs/zoo.md) from a test: the game's
//! controls and one bot run, on a virtual display of its own, one game at a time.

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// One game at a time: each brings up its own display and keeps a core busy.
static TURN: Mutex<()> = Mutex::new(());

fn zoo(args: &[&str], out: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(crate::repository().join("scripts/zoo.sh"))
        .args(args)
        .env("SUDOKU_BOT", crate::bot_executable())
        .env("ZOO_OUT", out)
        .output()
        .expect("run scripts/zoo.sh")
}

/// Runs `game`'s controls and one bot run (`extra`: more flags for scripts/zoo.sh) and
/// returns the fields of its row of results.tsv (game, kind, control +, control −, run,
/// verdict, bot exit, bot's last line, seconds, truthfully solved, game model, what the
/// bot must do, control ×), at least `fields` of them; `None` when the game is not
/// installed (and CI is not set). With SUDOKU_BOT_E2E_SHOTS, its pictures are copied
/// into that folder.
pub fn run_game(game: &str, extra: &[&str], fields: usize) -> Option<Vec<String>> {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let out = tempfile::tempdir().expect("temp dir");
    let installed = zoo(&["--installed", game], out.path());
    if !installed.status.success() {
        let why = String::from_utf8_lossy(&installed.stderr)
            .trim()
            .to_string();
        assert!(
            std::env::var_os("CI").is_none(),
            "the zoo's game {game} is not installed, and CI is set: {why}"
        );
        crate::say_skipped(&format!("{why}; the zoo test of {game} did not run"));
        return None;
    }
    let mut args = vec!["--runs", "1"];
    args.extend_from_slice(extra);
    args.push(game);
    let run = zoo(&args, out.path());
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let table = std::fs::read_to_string(out.path().join("results.tsv")).unwrap_or_default();
    let row: Vec<String> = table
        .lines()
        .next()
        .unwrap_or("")
        .split('\t')
        .map(String::from)
        .collect();
    assert!(
        row.len() >= fields,
        "no result row for {game}; the zoo said:\n{log}"
    );
    if let Ok(dir) = std::env::var("SUDOKU_BOT_E2E_SHOTS") {
        for entry in std::fs::read_dir(out.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.path().extension().is_some_and(|e| e == "png") {
                let _ = std::fs::copy(entry.path(), Path::new(&dir).join(entry.file_name()));
            }
        }
    }
    Some(row)
}
