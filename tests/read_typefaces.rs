//! The typefaces of issue 29, drawn by fixtures/typefaces/make.py (seven-segment digits
//! with no unlit segments, green on black; thin light faces on OLED black, some blue;
//! outline-only digits; dot-matrix and stencil digits; cells of 14 to 110 px): each
//! picture is read exactly or refused, never misread, and a cell that holds a digit is
//! never read as empty. The pictures the reader reads exactly today must stay read.

use std::path::{Path, PathBuf};

use sudoku_bot::vision::Reader;

/// (picture, grid) of each line of `fixtures/typefaces/<set>/MANIFEST`.
fn labelled(set: &str) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/typefaces")
        .join(set);
    let text = std::fs::read_to_string(dir.join("MANIFEST")).expect("a MANIFEST");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let file = parts.next().unwrap();
            (dir.join(file), parts.next().unwrap().to_string())
        })
        .collect()
}

/// Pictures of the tuning set read exactly (the others are refused).
const READ_EXACTLY: &[&str] = &[
    "seg7-dseg7classic-400-24.png",
    "seg7-dseg7classic-400-40.png",
    "seg7-dseg7classic-400-64.png",
    "seg7-dseg7classic-400-110.png",
    "oled-dejavusans-100-24.png",
    "oled-dejavusans-100-40.png",
    "oled-dejavusans-100-64.png",
    "oled-dejavusans-100-110.png",
    "dots-dejavusans-700-14.png",
    "dots-dejavusans-700-64.png",
    "dots-dejavusans-700-110.png",
    "stencil-allertastencil-400-24.png",
    "stencil-allertastencil-400-40.png",
    "stencil-allertastencil-400-64.png",
    "stencil-allertastencil-400-110.png",
];

#[test]
fn every_typeface_picture_is_read_exactly_or_refused_never_misread() {
    let pictures = labelled("tune");
    assert_eq!(pictures.len(), 25);
    let mut wrong = Vec::new();
    for (path, want) in &pictures {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // A fresh reader each time, as `sudoku-bot read` has.
        let mut reader = Reader::new().expect("Tesseract starts");
        let picture = image::open(path).expect("fixture opens");
        match reader.read(&picture, None) {
            Ok(r) if r.grid.to_line() == *want => {}
            Ok(r) => wrong.push(format!("{name}: MISREAD {} want {want}", r.grid.to_line())),
            Err(e) if READ_EXACTLY.contains(&name.as_str()) => {
                wrong.push(format!("{name}: refused ({e}), read exactly before"))
            }
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
