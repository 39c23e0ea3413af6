//! Two readers of one picture: where the photo path's reading contradicts what the
//! screenshot path read, the cells are in doubt.

use super::reader::ReadError;
use super::Reading;

/// A photo's reading stands against a screenshot reading of the same picture that
/// differs from it in more cells than this (the screenshot path did not see its grid).
const MAX_CONTRADICTED: usize = 4;

/// Where the photo path's reading contradicts what the screenshot reading was sure
/// of (every cell of an accepted reading; all but the doubtful ones of a refused one):
/// the error naming those cells, or `None` when the two agree. The photo path reads
/// what Tesseract could not; it may not overrule what the screenshot showed.
pub(super) fn disagreement(
    screen: &Result<Reading, ReadError>,
    photo: &Reading,
) -> Option<ReadError> {
    let (reading, doubtful): (&Reading, &[usize]) = match screen {
        Ok(reading) => (reading, &[]),
        Err(ReadError::Doubtful { reading, cells, .. }) => (reading, cells),
        Err(_) => return None,
    };
    let differ: Vec<usize> = (0..81)
        .filter(|i| !doubtful.contains(i))
        .filter(|&i| reading.grid.cells()[i] != photo.grid.cells()[i])
        .collect();
    if differ.is_empty() {
        return None;
    }
    tracing::debug!(
        "the photo path's reading differs in cells the screenshot showed: {}",
        crate::grid::cell_names(&differ)
    );
    Some(ReadError::Doubtful {
        reason: "the photo reader and the screenshot reader disagree".into(),
        cells: differ,
        reading: Box::new(photo.clone()),
    })
}

/// For a picture that looked like a photo: the doubt when the screenshot path read the
/// same grid but for at most [`MAX_CONTRADICTED`] cells. Differing in more, it did not
/// see this grid (on a photo, Tesseract and the screen's lattice are not the readers
/// for paper), and the photo's reading stands.
pub(super) fn few_contradictions(
    screen: &Result<Reading, ReadError>,
    photo: &Reading,
) -> Option<ReadError> {
    disagreement(screen, photo).filter(
        |e| matches!(e, ReadError::Doubtful { cells, .. } if cells.len() <= MAX_CONTRADICTED),
    )
}
