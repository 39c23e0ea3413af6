//! `sudoku-bot overlay`: draw the solution onto the picture.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use crate::grid::cell_names;
use crate::modes::read::{is_stdio, open_picture, picture_name, reader_for};
use crate::vision::{debug, ReadError, Reading};
use crate::Failure;

/// Reads `image` (`-`: standard input), solves it, and writes a same-size copy to `out` (`-`: standard output) with the answer drawn
/// into every empty cell. When the puzzle cannot be solved nothing is drawn, the
/// doubtful cells are named (and, with `debug`, marked in `doubtful.png`), and the exit
/// code is 1.
pub fn run(image: &Path, out: &Path, debug_dir: Option<&Path>) -> anyhow::Result<ExitCode> {
    let (picture, format) = open_picture(image)?;
    let name = picture_name(image);
    let mut reader = reader_for(format)?;
    let reading = match reader
        .read(&picture, debug_dir)
        .and_then(Reading::unique_only)
    {
        Ok(reading) => reading,
        Err(ReadError::Doubtful {
            reason,
            cells,
            reading,
        }) => {
            mark_doubtful(debug_dir, &picture, &reading, &cells);
            return Err(Failure(format!(
                "{name}: {reason} (read as {}), nothing drawn (doubtful cells: {})",
                reading.grid.to_line(),
                cell_names(&cells)
            ))
            .into());
        }
        Err(e) => return Err(e).with_context(|| name.clone()),
    };
    let Some(solution) = reading.verdict.solution() else {
        return Err(Failure(format!("{name}: the reading has no solution to draw")).into());
    };
    let mut canvas = picture.to_rgb8();
    crate::overlay::draw_solution(&mut canvas, &reading, solution);
    if is_stdio(out) {
        let mut png = std::io::Cursor::new(Vec::new());
        canvas.write_to(&mut png, image::ImageFormat::Png)?;
        std::io::stdout().lock().write_all(png.get_ref())?;
    } else {
        canvas
            .save(out)
            .map_err(|e| Failure(format!("cannot write {}: {e}", out.display())))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// With `--debug`, the picture with the doubtful cells framed in red.
fn mark_doubtful(
    dir: Option<&Path>,
    picture: &image::DynamicImage,
    reading: &Reading,
    cells: &[usize],
) {
    let Some(dir) = dir else { return };
    debug::save(
        dir,
        "doubtful.png",
        &debug::doubtful_cells(picture, reading, cells),
    );
}
