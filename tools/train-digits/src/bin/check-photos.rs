//! Measures the photo reader's stages on a Wicht split, apart from each other:
//! the locator (corner error against outlines_sorted.csv) and the cells read through
//! the ground-truth outline (the classifier and rules without the locator's errors).
//!
//! Usage: check-photos SPLIT.desc [MODEL.bin]

use std::path::PathBuf;

use anyhow::Context;
use sudoku_bot::dataset::{corner_error, corners_match, load_desc};
use sudoku_bot::vision::digits::classifier::DigitClassifier;
use sudoku_bot::vision::photo::{locate_mesh, read_with_mesh, GridMesh};
use sudoku_bot::vision::ReadError;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let desc = PathBuf::from(
        args.get(1)
            .context("usage: check-photos SPLIT.desc [MODEL.bin]")?,
    );
    let model = match args.get(2) {
        Some(p) => DigitClassifier::load_file(p.as_ref())?,
        None => DigitClassifier::load()?,
    };
    let samples = load_desc(&desc)?;
    let mut tally = Tally::default();
    for s in &samples {
        let Some(outline) = s.outline else {
            println!("{}: no outline, skipped", s.image.display());
            continue;
        };
        let gray = image::open(&s.image)?.to_luma8();
        check_photo(&gray, outline, s, &model, &mut tally)?;
    }
    let errs = &mut tally.errs;
    errs.sort_by(f32::total_cmp);
    println!(
        "classifier: {:.3} ms a cell (preprocessing included), {} cells",
        1000.0 * tally.classify_secs / tally.classified.max(1) as f64,
        tally.classified
    );
    println!(
        "locator: {}/{} hits, median corner error {:.1} px, 90th pct {:.1} px; via outline: {}/{} exact, {} cells wrong",
        tally.hits,
        samples.len(),
        errs[errs.len() / 2],
        errs[errs.len() * 9 / 10],
        tally.exact_gt,
        samples.len(),
        tally.wrong_gt
    );
    Ok(())
}

/// What the photos showed so far.
#[derive(Default)]
struct Tally {
    hits: usize,
    exact_gt: usize,
    wrong_gt: usize,
    errs: Vec<f32>,
    classify_secs: f64,
    classified: usize,
}

/// One photo: the locator's corners against the outline, and the cells read through
/// the outline against the labels; a line for each miss.
fn check_photo(
    gray: &image::GrayImage,
    outline: [sudoku_bot::vision::Point; 4],
    s: &sudoku_bot::dataset::Sample,
    model: &DigitClassifier,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    let located = locate_mesh(gray);
    let err = located
        .as_ref()
        .map(|m| corner_error(&outline, &m.corners()))
        .unwrap_or(f32::INFINITY);
    let hit = located
        .as_ref()
        .is_some_and(|m| corners_match(&outline, &m.corners()));
    tally.hits += hit as usize;
    tally.errs.push(err);
    let mesh = GridMesh::from_corners(outline).context("bad outline")?;
    let cells = sudoku_bot::vision::photo::cut_cells(gray, &mesh);
    let start = std::time::Instant::now();
    for c in &cells {
        std::hint::black_box(model.classify(c));
    }
    tally.classify_secs += start.elapsed().as_secs_f64();
    tally.classified += cells.len();
    let reading = match read_with_mesh(gray, &mesh, model) {
        Ok(r) => r,
        Err(ReadError::Doubtful { reading, .. }) => *reading,
        Err(e) => return Err(e.into()),
    };
    let wrong: Vec<String> = (0..81)
        .filter(|&i| reading.grid.cells()[i] != s.truth.cells()[i])
        .map(|i| {
            format!(
                "r{}c{}:{}->{}",
                i / 9 + 1,
                i % 9 + 1,
                s.truth.cells()[i],
                reading.grid.cells()[i]
            )
        })
        .collect();
    tally.exact_gt += wrong.is_empty() as usize;
    tally.wrong_gt += wrong.len();
    if !hit {
        let (work, k) = sudoku_bot::vision::photo::work_picture(gray);
        for (c, score) in sudoku_bot::vision::photo::grid_candidates(&work) {
            let c = c.map(|p| (p.x * k, p.y * k));
            println!("    candidate {score:.3}: {c:?}");
        }
        println!("    truth {:?}", outline.map(|p| (p.x, p.y)));
    }
    if !hit || !wrong.is_empty() {
        println!(
            "{}: corner error {:.1} px{}; via outline {} wrong {}",
            s.image.display(),
            err,
            if hit { "" } else { " MISS" },
            wrong.len(),
            wrong.join(" ")
        );
    }
    Ok(())
}
