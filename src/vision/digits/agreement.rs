//! Two readers of one picture: where the photo path's reading contradicts what the
//! screenshot path read, the cells are in doubt.

use crate::vision::reading::{ReadError, Reading};

/// A photo's reading stands against a screenshot reading of the same picture that
/// differs from it in more cells than this (the screenshot path did not see its grid).
const MAX_CONTRADICTED: usize = 4;

/// Where the photo path's reading contradicts what the screenshot reading was sure
/// of (every cell of an accepted reading; all but the doubtful ones of a refused one):
/// the error naming those cells, or `None` when the two agree. The photo path reads
/// what Tesseract could not; it may not overrule what the screenshot showed.
pub(in crate::vision) fn disagreement(
    screen: &Result<Reading, ReadError>,
    photo: &Reading,
) -> Option<ReadError> {
    let (reading, doubtful): (&Reading, &[usize]) = match screen {
        Ok(reading) => (reading, &[]),
        Err(ReadError::Doubtful { reading, cells, .. }) => (reading, cells),
        Err(_) => return None,
    };
    // A cell the screenshot's two readers disputed is not the photo path's to decide
    // either way: its classifier would only repeat one of them (sudoku-1440's red 1s,
    // Tesseract's 1 and the classifier's 4, where the rules allow both).
    let disputed = |i: usize| {
        reading
            .cells
            .get(i)
            .is_some_and(|c| c.alternatives.len() >= 2)
    };
    let differ: Vec<usize> = (0..81)
        .filter(|&i| {
            if doubtful.contains(&i) {
                disputed(i)
            } else {
                reading.grid.cells()[i] != photo.grid.cells()[i]
            }
        })
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
pub(in crate::vision) fn few_contradictions(
    screen: &Result<Reading, ReadError>,
    photo: &Reading,
) -> Option<ReadError> {
    disagreement(screen, photo).filter(
        |e| matches!(e, ReadError::Doubtful { cells, .. } if cells.len() <= MAX_CONTRADICTED),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Verdict};
    use crate::vision::geometry::Homography;
    use crate::vision::geometry::Point;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn reading(line: &str) -> Reading {
        Reading {
            grid: Grid::parse(line).unwrap(),
            corners: [Point { x: 0.0, y: 0.0 }; 4],
            cells: Vec::new(),
            to_picture: Homography::IDENTITY,
            verdict: Verdict::unjudged(),
            enlarged: None,
        }
    }

    /// The puzzle with `cells` changed: a 4 where empty, else emptied.
    fn changed(cells: &[usize]) -> String {
        PUZZLE
            .char_indices()
            .map(|(i, c)| match (cells.contains(&i), c) {
                (false, c) => c,
                (true, '.') => '4',
                (true, _) => '.',
            })
            .collect()
    }

    #[test]
    fn a_photo_reading_two_cells_off_the_screenshots_puts_them_in_doubt() {
        let screen = Ok(reading(PUZZLE));
        let photo = reading(&changed(&[2, 40]));
        match few_contradictions(&screen, &photo) {
            Some(ReadError::Doubtful { cells, .. }) => assert_eq!(cells, vec![2, 40]),
            other => panic!("{other:?}"),
        }
        assert!(few_contradictions(&screen, &reading(PUZZLE)).is_none());
    }

    #[test]
    fn a_screenshot_reading_far_off_the_photos_has_no_say_and_its_doubtful_cells_none() {
        // Twenty cells apart: the screenshot path did not see this grid.
        let photo = reading(&changed(&(0..20).collect::<Vec<_>>()));
        assert!(few_contradictions(&Ok(reading(PUZZLE)), &photo).is_none());
        // The cells a refused screenshot reading doubted are the photo path's to read.
        let screen = Err(ReadError::Doubtful {
            reason: "unread".into(),
            cells: vec![2, 40],
            reading: Box::new(reading(PUZZLE)),
        });
        assert!(disagreement(&screen, &reading(&changed(&[2, 40]))).is_none());
        assert!(disagreement(&screen, &reading(&changed(&[2, 41]))).is_some());
    }

    #[test]
    fn a_cell_the_screenshots_two_readers_disputed_is_not_the_photo_paths_to_decide() {
        // r1c3 doubtful because Tesseract read 1 and the classifier 4 there: the photo
        // path's classifier reading it (4, or 1) settles nothing.
        let mut screen = reading(PUZZLE);
        screen.cells = (0..81)
            .map(|_| crate::vision::reading::CellReading {
                digit: None,
                confidence: 1.0,
                method: crate::vision::reading::Method::Empty,
                cell_box: crate::vision::geometry::Rect {
                    x: 0.0,
                    y: 0.0,
                    w: 1.0,
                    h: 1.0,
                },
                digit_box: None,
                alternatives: Vec::new(),
            })
            .collect();
        screen.cells[2].alternatives = vec![(1, 0.9), (4, 0.9)];
        let screen = Err(ReadError::Doubtful {
            reason: "disputed".into(),
            cells: vec![2],
            reading: Box::new(screen),
        });
        for photo in [changed(&[2]), PUZZLE.replacen('.', "1", 1)] {
            match disagreement(&screen, &reading(&photo)) {
                Some(ReadError::Doubtful { cells, .. }) => assert_eq!(cells, vec![2]),
                other => panic!("{other:?}"),
            }
        }
    }
}
