//! `sudoku-bot read` as a user runs it: the grid line, --json, --debug pictures, and a
//! clear one-line error with the right exit code for bad input.

use std::path::Path;
use std::process::{Command, Output};

fn bot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-bot"))
        .args(args)
        .output()
        .expect("runs")
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/screens")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const GNOME_EASY: &str = "gnome-easy-window-61.png";
const GNOME_EASY_GRID: &str =
    "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2";

#[test]
fn prints_the_grid_as_one_line() {
    let o = bot(&["read", &fixture(GNOME_EASY)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{GNOME_EASY_GRID}\n")
    );
}

#[test]
fn json_prints_only_a_document_with_corners_cells_confidence_and_method() {
    let o = bot(&["read", &fixture(GNOME_EASY), "--json"]);
    assert!(o.status.success());
    // Only JSON on stdout, so `| jq` works (issue 28): no grid line before it.
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["grid"], GNOME_EASY_GRID);
    assert_eq!(doc["corners"].as_array().unwrap().len(), 4);
    let cells = doc["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 81);
    assert_eq!(cells[0]["digit"], 2);
    assert_eq!(cells[0]["row"], 1);
    assert!(cells[0]["confidence"].as_f64().unwrap() > 0.5);
    assert!(
        ["ocr", "template", "rules", "classifier"].contains(&cells[0]["method"].as_str().unwrap())
    );
    assert!(cells[1]["digit"].is_null());
    assert_eq!(cells[1]["method"], "empty");
    assert!(cells[0]["cell_box"]["w"].as_f64().unwrap() > 40.0);
}

#[test]
fn debug_writes_a_picture_of_each_stage() {
    let dir = tempfile::tempdir().unwrap();
    let o = bot(&[
        "read",
        &fixture("web-flat-36-pencil.png"),
        "--debug",
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["1-grid.png", "2-glyphs.png", "3-read.png"] {
        let img = image::open(dir.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            img.width(),
            image::open(fixture("web-flat-36-pencil.png"))
                .unwrap()
                .width()
        );
    }
}

#[test]
fn debug_writes_each_enlarged_read_into_its_own_folder() {
    // Lato Hairline at 12 px cells: refused as it is, then read enlarged, in turn 2 and
    // 3 times with Lanczos and 2 and 3 times with Catmull-Rom, and refused still (its
    // strokes that tell a 2 from a 7 are not in the picture).
    let picture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/typefaces/holdout2/oled-lato-100-12.png");
    let dir = tempfile::tempdir().unwrap();
    let o = bot(&[
        "read",
        picture.to_str().unwrap(),
        "--debug",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("could not be read"), "{}", stderr(&o));
    let width = |sub: &str| {
        image::open(dir.path().join(sub).join("3-read.png"))
            .unwrap_or_else(|e| panic!("{sub}: {e}"))
            .width()
    };
    let two = width("enlarged-2-lanczos3");
    assert_eq!(width("enlarged-3-lanczos3") * 2, two * 3);
    assert_eq!(width("enlarged-2-catmullrom"), two);
    assert_eq!(width("enlarged-3-catmullrom") * 2, two * 3);
}

/// One line on stderr that names the file, the given exit code, nothing on stdout.
fn assert_clear_error(o: &Output, code: i32, file: &str, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert!(
        o.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(file), "names the file: {err}");
    assert!(err.contains(words), "says '{words}': {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_gives_one_clear_line_and_an_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();

    let o = bot(&["read", &p("missing.png")]);
    assert_clear_error(&o, 2, "missing.png", "no such file");

    std::fs::write(p("empty.png"), b"").unwrap();
    assert_clear_error(&bot(&["read", &p("empty.png")]), 2, "empty.png", "empty");

    std::fs::write(p("notes.png"), b"this is a text file, not a picture\n").unwrap();
    assert_clear_error(
        &bot(&["read", &p("notes.png")]),
        2,
        "notes.png",
        "not a picture",
    );

    let good = std::fs::read(fixture(GNOME_EASY)).unwrap();
    std::fs::write(p("truncated.png"), &good[..good.len() / 3]).unwrap();
    assert_clear_error(
        &bot(&["read", &p("truncated.png")]),
        2,
        "truncated.png",
        "not a picture",
    );

    image::RgbImage::from_pixel(640, 480, image::Rgb([255, 255, 255]))
        .save(p("blank.png"))
        .unwrap();
    assert_clear_error(
        &bot(&["read", &p("blank.png")]),
        1,
        "blank.png",
        "no sudoku grid",
    );

    let mut seed = 12345u32;
    let noise = image::RgbImage::from_fn(640, 480, |_, _| {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        image::Rgb([(seed >> 24) as u8, (seed >> 16) as u8, (seed >> 8) as u8])
    });
    noise.save(p("noise.png")).unwrap();
    assert_clear_error(
        &bot(&["read", &p("noise.png")]),
        1,
        "noise.png",
        "no sudoku grid",
    );

    // A screenshot without a grid: the difficulty chooser of GNOME Sudoku.
    let chooser = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bad/gnome-chooser.png");
    let o = bot(&["read", chooser.to_str().unwrap()]);
    assert_clear_error(&o, 1, "gnome-chooser.png", "no sudoku grid");
}
