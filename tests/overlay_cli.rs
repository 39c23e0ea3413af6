//! `sudoku-bot overlay` as a user runs it: the answer drawn into the picture is read back
//! by the project's own reader (every empty cell now holds the solution's digit, every
//! given is unchanged), and nothing outside the empty cells changes.

use std::path::{Path, PathBuf};
use std::process::Command;

use sudoku_bot::solver::{solve, Solution};
use sudoku_bot::vision::Reader;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn overlay(input: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .arg("overlay")
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

/// Overlays `name`, reads the result back, and checks it against the solution.
fn overlay_reads_back_as_the_solution(name: &str) {
    let folder = if name.ends_with(".jpg") {
        "fixtures/photos"
    } else {
        "fixtures/screens"
    };
    let input = root().join(folder).join(name);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answer.png");
    let o = overlay(&input, &out);
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    let before = image::open(&input).unwrap().to_rgb8();
    let after = image::open(&out).unwrap().to_rgb8();
    assert_eq!(before.dimensions(), after.dimensions(), "{name}: same size");

    let mut reader = Reader::new().unwrap();
    let read = reader
        .read(&image::DynamicImage::ImageRgb8(before.clone()), None)
        .unwrap();
    let Solution::Unique(solution) = solve(&read.grid) else {
        panic!("{name}: fixture not uniquely solvable")
    };
    // What is drawn, as the first reading sees it (the answer's digits are the
    // overlay's own font, not the game's: the second reading need not confirm them).
    let back = Reader::new()
        .unwrap()
        .read_unconfirmed(&image::DynamicImage::ImageRgb8(after.clone()), None)
        .unwrap();
    assert_eq!(
        back.grid, solution,
        "{name}: read back\n{:?}want\n{:?}",
        back.grid, solution
    );

    // Only pixels inside empty cells may change.
    let empty_boxes: Vec<_> = (0..81)
        .filter(|&i| read.grid.cells()[i] == 0)
        .map(|i| read.cells[i].cell_box)
        .collect();
    let changed_outside = before
        .enumerate_pixels()
        .filter(|(x, y, p)| after.get_pixel(*x, *y) != *p)
        .filter(|(x, y, _)| {
            let (x, y) = (*x as f32 + 0.5, *y as f32 + 0.5);
            !empty_boxes.iter().any(|b| {
                x >= b.x - 1.0 && x <= b.x + b.w + 1.0 && y >= b.y - 1.0 && y <= b.y + b.h + 1.0
            })
        })
        .count();
    assert_eq!(
        changed_outside, 0,
        "{name}: pixels changed outside the empty cells"
    );
}

#[test]
fn gnome_sudoku() {
    overlay_reads_back_as_the_solution("gnome-easy-window-61.png");
}

#[test]
fn gnome_sudoku_with_earmarks() {
    overlay_reads_back_as_the_solution("gnome-earmarks-window-77.png");
}

#[test]
fn dark_theme() {
    overlay_reads_back_as_the_solution("web-dark-40.png");
}

#[test]
fn coloured_textured_tiles() {
    overlay_reads_back_as_the_solution("web-tiles-56.png");
}

#[test]
fn pencil_marks() {
    overlay_reads_back_as_the_solution("web-flat-36-pencil.png");
    overlay_reads_back_as_the_solution("solo-window-60-pencil.png");
}

#[test]
fn bevelled_cells_with_gaps_between_boxes() {
    overlay_reads_back_as_the_solution("fltk-window-52-dealt.png");
}

#[test]
fn terminal_game() {
    overlay_reads_back_as_the_solution("nudoku-xterm-14.png");
}

#[test]
fn whole_screen() {
    overlay_reads_back_as_the_solution("web-screen-flat-52.png");
}

#[test]
fn phone_photos_of_newspaper_grids_in_perspective() {
    overlay_reads_back_as_the_solution("image10.jpg");
    overlay_reads_back_as_the_solution("image100.jpg");
}

#[test]
fn an_unsolvable_puzzle_draws_nothing_and_names_the_doubtful_cells() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answer.png");
    let dbg = dir.path().join("debug");
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .arg("overlay")
        .arg(root().join("fixtures/bad/web-unsolvable.png"))
        .args([
            "-o",
            out.to_str().unwrap(),
            "--debug",
            dbg.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!out.exists(), "nothing drawn");
    assert!(
        err.contains("has no solution") && err.contains("doubtful cells: r1c7"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1);
    assert!(
        dbg.join("doubtful.png").exists(),
        "--debug marks the doubtful cells"
    );
}
