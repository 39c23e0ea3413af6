//! Where the grid lies in a screenshot: the ways of finding its cells, tried in turn
//! from the cheapest and most exact to the most forgiving.

use super::boxes::{box_candidates, locate_boxes, TINY_CELL};
use super::dashes::bridge_dashes;
use super::lattice::{locate_lattice, Lattice};
use super::regions::{label_regions, luminance, smooth, Regions};
use super::unlined_boxes::locate_unlined_boxes;

/// Radius of the blur that flattens textured tiles when the plain picture shows no grid
/// (and merges cells across faint thin lines that JPEG has blurred).
const TEXTURE_RADIUS: u32 = 3;

/// The screen grid's lattice of cells and the regions it was found among: cells as
/// flat regions; else on a smoothed copy (textured tiles); else as nine 3x3 boxes
/// (dashed or dotted lines between cells), found among all regions, or on the smoothed
/// copy (faint thin lines JPEG has blurred into the cells, which merge some cells and
/// not others), or among the regions between dark lines only (tiny cells); else on a
/// copy whose dashed lines are joined (a terminal's grid drawn with characters), as
/// cells, boxes, or boxes with nothing between their cells; else as boxes with nothing
/// between their cells (box borders only, cut where their contents stand). A lattice
/// found on the smoothed copy is grown back by the blur's radius.
pub fn locate_screen_grid(rgb: &image::RgbImage) -> (Regions, Option<Lattice>) {
    let regions = label_regions(rgb);
    if let Some(lattice) = locate_lattice(&regions) {
        return (regions, Some(lattice));
    }
    let smoothed = label_regions(&smooth(rgb, TEXTURE_RADIUS));
    if let Some(lattice) = locate_lattice(&smoothed) {
        return (smoothed, Some(lattice.grown(TEXTURE_RADIUS as f32)));
    }
    if let Some(boxes) = locate_boxes(&regions, rgb) {
        return (regions, Some(boxes));
    }
    // The blur matters to the boxes only where it changed them (a checkerboard's
    // thousands of squares are as many either way, and not searched twice).
    let changed = box_candidates(&smoothed) != box_candidates(&regions);
    if let Some(boxes) = changed.then(|| locate_boxes(&smoothed, rgb)).flatten() {
        tracing::debug!("boxes found on the smoothed picture");
        return (smoothed, Some(boxes.grown(TEXTURE_RADIUS as f32)));
    }
    // Colour fringes and JPEG's coarser colour planes tint bands of a cell: on the
    // luminance alone the cells are flat again.
    // (A grey picture is its own luminance: nothing to try.)
    if has_colour(rgb) {
        let grey = label_regions(&luminance_only(rgb));
        if let Some(lattice) = locate_lattice(&grey) {
            tracing::debug!("cells found on the luminance alone");
            return (grey, Some(lattice.without_labels()));
        }
    }
    // Tiny cells whose thin lines are partly lost: the boxes are the regions between
    // the dark (thick) lines alone.
    let dark = label_regions(&dark_only(rgb));
    let tiny = |l: &Lattice| l.cells[40].w.max(l.cells[40].h) < TINY_CELL;
    if let Some(boxes) = locate_boxes(&dark, rgb).filter(tiny) {
        return (dark, Some(boxes));
    }
    // A grid drawn with a terminal's characters: its lines are broken where one
    // character meets the next; made whole, the cells (or boxes) are regions again.
    if let Some(bridged) = bridge_dashes(rgb) {
        let joined = label_regions(&bridged);
        if let Some(lattice) = locate_lattice(&joined) {
            tracing::debug!("cells found once dashed lines were joined");
            return (joined, Some(lattice));
        }
        if let Some(boxes) = locate_boxes(&joined, &bridged) {
            tracing::debug!("boxes found once dashed lines were joined");
            return (joined, Some(boxes));
        }
        // The boxes' contents as the picture shows them (digits' strokes that line up
        // down a column may have been joined as well).
        if let Some(boxes) = locate_unlined_boxes(&joined, rgb) {
            return (joined, Some(boxes));
        }
    }
    // Box borders and nothing between the cells but what is in them (labels, entry
    // widgets): the boxes cut where their contents stand.
    if let Some(boxes) = locate_unlined_boxes(&regions, rgb) {
        return (regions, Some(boxes));
    }
    (dark, None)
}

/// The picture with only its dark pixels kept (black), all else white: thin grey lines
/// between cells vanish, thick black lines between boxes stay.
fn dark_only(rgb: &image::RgbImage) -> image::RgbImage {
    image::RgbImage::from_fn(rgb.width(), rgb.height(), |x, y| {
        let dark = luminance(rgb.get_pixel(x, y).0) < DARK_LINE;
        image::Rgb(if dark { [0; 3] } else { [255; 3] })
    })
}

/// True when some pixel's channels differ by more than the labelling's tolerance (on
/// every 4th row): the picture is not grey.
fn has_colour(rgb: &image::RgbImage) -> bool {
    rgb.rows().step_by(4).flatten().any(|p| {
        let (lo, hi) = (p.0.iter().min().unwrap(), p.0.iter().max().unwrap());
        hi - lo > super::regions::FLAT_TOLERANCE
    })
}

/// The picture in grey: each pixel's luminance in all three channels.
fn luminance_only(rgb: &image::RgbImage) -> image::RgbImage {
    image::RgbImage::from_fn(rgb.width(), rgb.height(), |x, y| {
        image::Rgb([luminance(rgb.get_pixel(x, y).0) as u8; 3])
    })
}

/// The luminance under which a pixel counts as a dark line for [`dark_only`].
const DARK_LINE: u32 = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    /// A dark theme's grid after JPEG: 30 px cells of (39, 42, 49), box lines 3 px of
    /// (150, 150, 160), thin lines blurred into a 3 px ramp that steps at most 9 levels
    /// a pixel (so the cells run into each other as flat regions).
    fn faint_grid() -> RgbImage {
        let (cell, ox, oy) = (30u32, 20u32, 25u32);
        let mut img = RgbImage::from_pixel(420, 420, Rgb([39, 42, 49]));
        let mut lines = Vec::new();
        let mut p = 0;
        for k in 0..=9 {
            lines.push((p, k % 3 == 0));
            p += 3 + cell;
        }
        let total = p - cell;
        // Thin lines first: the box lines cross them unbroken.
        lines.sort_by_key(|l| l.1);
        for &(q, thick) in &lines {
            let ramp: &[u8] = if thick { &[111, 111, 111] } else { &[9, 15, 9] };
            for (t, &lift) in ramp.iter().enumerate() {
                let c = Rgb([39 + lift, 42 + lift, 49 + lift]);
                for u in 0..total {
                    img.put_pixel(ox + q + t as u32, oy + u, c);
                    img.put_pixel(ox + u, oy + q + t as u32, c);
                }
            }
        }
        img
    }

    #[test]
    fn cells_split_by_a_band_of_tint_are_whole_on_the_luminance() {
        // JPEG's colour planes, a quarter the size of the picture, tint a band of a
        // white cell near a colour-fringed line: 21 levels off in blue, 2 in luminance.
        let mut img =
            super::super::tests::draw_grid(420, 420, 20, 20, 36, 1, 3, [0, 0, 0], [255, 255, 255]);
        // Each cell's left edge: past the 3 px border, 36 px cells, 3 px box lines.
        let mut left = 23;
        for col in 0..9 {
            for (x, y) in (left + 17..left + 19).flat_map(|x| (0..420).map(move |y| (x, y))) {
                if img.get_pixel(x, y).0 == [255; 3] {
                    img.put_pixel(x, y, Rgb([255, 255, 234]));
                }
            }
            left += 36 + if col % 3 == 2 { 3 } else { 1 };
        }
        assert!(
            locate_lattice(&label_regions(&img)).is_none(),
            "split cells"
        );
        let lattice = locate_lattice(&label_regions(&luminance_only(&img))).expect("grid");
        assert_eq!(lattice.cells[0].w, 36.0);
    }

    #[test]
    fn a_dark_grid_whose_thin_lines_jpeg_has_faded_is_found_cell_by_cell() {
        let img = faint_grid();
        let (_, lattice) = locate_screen_grid(&img);
        let lattice = lattice.expect("the grid");
        // Cell r1c1 starts past the 3 px border; r5c5 is 4 cells and 4 lines further.
        let first = lattice.cells[0];
        assert!(
            (first.x - 23.0).abs() <= 1.0 && (first.y - 28.0).abs() <= 1.0,
            "{first:?}"
        );
        let mid = lattice.cells[40].center();
        let want = (
            20.0 + 3.0 + 4.0 * 33.0 + 15.0,
            25.0 + 3.0 + 4.0 * 33.0 + 15.0,
        );
        assert!(
            (mid.x - want.0).abs() <= 2.0 && (mid.y - want.1).abs() <= 2.0,
            "{mid:?}"
        );
    }
}
