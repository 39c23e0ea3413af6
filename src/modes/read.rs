//! `sudoku-bot read`: print the grid read from a picture.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;

use crate::vision::{CellReading, Point, Reader, ReaderOptions, Reading};
use crate::UsageError;

/// The `--json` document printed after the grid line.
#[derive(Serialize)]
struct ReadingJson<'a> {
    grid: String,
    /// top-left, top-right, bottom-right, bottom-left, in picture pixels
    corners: &'a [Point; 4],
    cells: Vec<CellJson<'a>>,
}

#[derive(Serialize)]
struct CellJson<'a> {
    row: usize,
    col: usize,
    #[serde(flatten)]
    cell: &'a CellReading,
}

/// Reads the grid in `image` and prints it as one 81-character line; with `json`, a JSON
/// document follows; with `debug`, stage pictures go into that folder.
pub fn run(image: &Path, json: bool, debug: Option<&Path>) -> anyhow::Result<ExitCode> {
    let (picture, format) = open_picture(image)?;
    let mut reader = reader_for(format)?;
    let reading = reader
        .read(&picture, debug)
        .with_context(|| format!("{}", image.display()))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", reading.grid.to_line())?;
    if json {
        serde_json::to_writer_pretty(&mut out, &to_json(&reading))?;
        writeln!(out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn to_json(reading: &Reading) -> ReadingJson<'_> {
    ReadingJson {
        grid: reading.grid.to_line(),
        corners: &reading.corners,
        cells: reading
            .cells
            .iter()
            .enumerate()
            .map(|(i, cell)| CellJson {
                row: i / 9 + 1,
                col: i % 9 + 1,
                cell,
            })
            .collect(),
    }
}

/// A reader suited to the file: camera pictures (JPEG) are read by the classifier and
/// seldom need Tesseract, so it starts only if needed; for screenshots it starts at
/// once, in the background.
pub fn reader_for(format: Option<image::ImageFormat>) -> anyhow::Result<Reader> {
    let eager_ocr = format != Some(image::ImageFormat::Jpeg);
    Ok(Reader::with_options(ReaderOptions {
        eager_ocr,
        ..ReaderOptions::default()
    })?)
}

/// Opens a picture file, and says its format; a missing, empty, truncated or non-image
/// file is a usage error that names the file.
pub fn open_picture(
    path: &Path,
) -> anyhow::Result<(image::DynamicImage, Option<image::ImageFormat>)> {
    let bytes = std::fs::read(path)
        .map_err(|e| UsageError(format!("cannot open {}: {}", path.display(), io_reason(&e))))?;
    if bytes.is_empty() {
        return Err(UsageError(format!("{} is empty, not a picture", path.display())).into());
    }
    let format = image::guess_format(&bytes).ok();
    let picture = image::load_from_memory(&bytes).map_err(|e| {
        UsageError(format!(
            "{} is not a picture that can be read (PNG, JPEG or BMP): {e}",
            path.display()
        ))
    })?;
    Ok((picture, format))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
