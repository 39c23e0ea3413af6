//! One verdict for every command: `read` and `overlay` refuse a picture whose puzzle has
//! no solution in the same words, blaming the same cell, where `read` used to print the
//! grid and exit 0 (a silent misread, had a digit been read wrong); and a grid read with
//! fewer than 17 digits, which no puzzle with one solution has (digits were missed, or
//! none is dealt), where `read` printed it and exited 0.

use std::path::Path;
use std::process::{Command, Output};

fn bot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args(args)
        .output()
        .expect("runs")
}

/// A web page whose givens do not clash but have no solution: changing the given in
/// r1c7 is the one way to mend it.
fn unsolvable() -> String {
    sparse("web-unsolvable.png")
}

#[test]
fn read_refuses_a_puzzle_with_no_solution_and_names_the_cell_to_blame() {
    let o = bot(&["read", &unsolvable()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(o.stdout.is_empty(), "no grid line printed");
    assert!(
        err.contains("the puzzle read has no solution (doubtful cells: r1c7)"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn overlay_refuses_it_in_the_same_words() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answer.png");
    let o = bot(&["overlay", &unsolvable(), "-o", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!out.exists(), "nothing drawn");
    assert!(
        err.contains("the puzzle read has no solution") && err.contains("doubtful cells: r1c7"),
        "{err}"
    );
}

/// A picture in fixtures/bad: our web page with no solution, with the first 16 givens of
/// a puzzle, or with none (headless Chromium, 560x560).
fn sparse(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/bad")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn fewer_than_17_digits_are_refused_by_read_and_overlay() {
    for (name, n) in [("web-16-givens.png", 16), ("web-empty.png", 0)] {
        let o = bot(&["read", &sparse(name)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}: no grid line printed");
        assert!(
            err.contains(&format!(
                "only {n} digits were read, and a sudoku needs at least 17"
            )),
            "{name}: {err}"
        );
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("answer.png");
        let o = bot(&["overlay", &sparse(name), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(!out.exists(), "{name}: no made-up answer drawn");
    }
    // The 16 it read are the page's: the refusal is about the count, not a misread.
    let json = bot(&["read", "--json", &sparse("web-16-givens.png")]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        v["grid"],
        "53..7....6..195....98....6.8...6...34..8.3......................................."
    );
}
