//! Labelled picture sets, for measuring the reader (`sudoku-bot eval`, the training
//! tools, the photo tests).
//!
//! A label file is either a Wicht-style `.desc` list (image paths relative to the
//! file's folder, truth in the `.dat` beside each image, outlines in
//! `outlines_sorted.csv` beside the `.desc` when present) or a manifest of lines
//! `FILE GRID  # comment` (paths relative to the manifest's folder).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::grid::Grid;
use crate::vision::Point;
use crate::UsageError;

/// A located corner counts as a hit when it lies within this fraction of the grid's
/// side from the labelled corner (2% of a 400 px grid is 8 px, under a fifth of a cell).
pub const CORNER_TOLERANCE: f32 = 0.02;

/// One labelled picture.
#[derive(Debug, Clone)]
pub struct Sample {
    pub image: PathBuf,
    pub truth: Grid,
    /// The grid's corners (top-left, top-right, bottom-right, bottom-left) when known.
    pub outline: Option<[Point; 4]>,
}

/// Reads a labelled set: a `.desc` list or a manifest.
pub fn load_set(labels: &Path) -> anyhow::Result<Vec<Sample>> {
    if labels.extension().is_some_and(|e| e == "desc") {
        load_desc(labels)
    } else {
        load_manifest(labels)
    }
}

/// A Wicht `.desc` list with its `.dat` truths and, when beside it, the outlines.
pub fn load_desc(desc: &Path) -> anyhow::Result<Vec<Sample>> {
    let dir = desc.parent().unwrap_or(Path::new("."));
    let text =
        std::fs::read_to_string(desc).with_context(|| format!("cannot read {}", desc.display()))?;
    let outlines = match std::fs::read_to_string(dir.join("outlines_sorted.csv")) {
        Ok(csv) => parse_outlines(&csv),
        Err(_) => HashMap::new(),
    };
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let image = dir.join(line);
        let dat = image.with_extension("dat");
        let truth = read_dat(&dat)?;
        let key = line.trim_start_matches("./").to_string();
        let outline = outlines
            .get(&key)
            .map(|&o| outline_in_stored_frame(&image, o));
        out.push(Sample {
            image,
            truth,
            outline,
        });
    }
    Ok(out)
}

/// The grid of a Wicht `.dat` file: two header lines, then 9 rows of 9 digits
/// separated by spaces (0 for empty). Lenient about spacing and trailing blanks.
pub fn read_dat(path: &Path) -> anyhow::Result<Grid> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let digits: Vec<u8> = text
        .lines()
        .skip(2)
        .flat_map(|l| l.split_whitespace())
        .filter_map(|t| t.parse::<u8>().ok())
        .collect();
    if digits.len() != 81 || digits.iter().any(|&d| d > 9) {
        return Err(UsageError(format!(
            "{}: expected 81 digits 0-9 after two header lines",
            path.display()
        ))
        .into());
    }
    let mut cells = [0u8; 81];
    cells.copy_from_slice(&digits);
    Ok(Grid::from_cells(cells))
}

/// `outlines_sorted.csv`: image path (as "./images/x.jpg") and four corners clockwise
/// from the top-left. Keys are the paths without the leading "./".
pub fn parse_outlines(csv: &str) -> HashMap<String, [Point; 4]> {
    let mut out = HashMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line
            .split(',')
            .map(|s| s.trim().trim_matches('"'))
            .collect();
        if f.len() < 9 {
            continue;
        }
        let v: Vec<f32> = f[1..9].iter().filter_map(|s| s.parse().ok()).collect();
        if v.len() != 8 {
            continue;
        }
        let p = |i: usize| Point {
            x: v[2 * i],
            y: v[2 * i + 1],
        };
        out.insert(
            f[0].trim_start_matches("./").to_string(),
            [p(0), p(1), p(2), p(3)],
        );
    }
    out
}

/// The Wicht outlines of photos with an EXIF orientation were drawn on the picture as
/// displayed (rotated), while the `.dat` grids and this reader use the stored pixels,
/// as `image::open` gives them. This maps an outline back to the stored pixels and
/// restores the corner order (top-left first, clockwise).
fn outline_in_stored_frame(image: &Path, outline: [Point; 4]) -> [Point; 4] {
    use image::metadata::Orientation;
    use image::ImageDecoder;
    let decoder = image::ImageReader::open(image)
        .ok()
        .and_then(|r| r.with_guessed_format().ok())
        .and_then(|r| r.into_decoder().ok());
    let Some(mut decoder) = decoder else {
        return outline;
    };
    let (w, h) = decoder.dimensions();
    let (w, h) = (w as f32, h as f32);
    let map: fn(Point, f32, f32) -> Point = match decoder.orientation() {
        Ok(Orientation::Rotate90) => |p, _w, h| Point {
            x: p.y,
            y: h - 1.0 - p.x,
        },
        Ok(Orientation::Rotate180) => |p, w, h| Point {
            x: w - 1.0 - p.x,
            y: h - 1.0 - p.y,
        },
        Ok(Orientation::Rotate270) => |p, w, _h| Point {
            x: w - 1.0 - p.y,
            y: p.x,
        },
        _ => return outline,
    };
    let mapped = outline.map(|p| map(p, w, h));
    // Clockwise order is kept by a rotation; start again from the top-left one.
    let first = (0..4)
        .min_by(|&a, &b| (mapped[a].x + mapped[a].y).total_cmp(&(mapped[b].x + mapped[b].y)))
        .unwrap_or(0);
    [0, 1, 2, 3].map(|k| mapped[(first + k) % 4])
}

/// A manifest: lines `FILE GRID  # comment`, blank and '#' lines skipped.
pub fn load_manifest(path: &Path) -> anyhow::Result<Vec<Sample>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(file), Some(grid)) = (parts.next(), parts.next()) else {
            return Err(UsageError(format!(
                "{} line {}: expected FILE GRID",
                path.display(),
                n + 1
            ))
            .into());
        };
        let truth = Grid::parse(grid)
            .map_err(|e| UsageError(format!("{} line {}: {e}", path.display(), n + 1)))?;
        out.push(Sample {
            image: dir.join(file),
            truth,
            outline: None,
        });
    }
    Ok(out)
}

/// True when each corner lies within [`CORNER_TOLERANCE`] of the grid's side from its
/// labelled position.
pub fn corners_match(truth: &[Point; 4], found: &[Point; 4]) -> bool {
    let side = ((truth[1].x - truth[0].x).hypot(truth[1].y - truth[0].y)
        + (truth[2].x - truth[3].x).hypot(truth[2].y - truth[3].y))
        / 2.0;
    truth
        .iter()
        .zip(found)
        .all(|(t, f)| (t.x - f.x).hypot(t.y - f.y) <= CORNER_TOLERANCE * side)
}

/// The largest corner distance, in pixels.
pub fn corner_error(truth: &[Point; 4], found: &[Point; 4]) -> f32 {
    truth
        .iter()
        .zip(found)
        .map(|(t, f)| (t.x - f.x).hypot(t.y - f.y))
        .fold(0.0, f32::max)
}
