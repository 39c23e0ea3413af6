//! The marks inside each cell: which cells hold a given-sized digit, and the digit's
//! image, normalised so that any theme reads as dark ink on white.
//!
//! Ink is any pixel of the cell box whose colour is more than [`INK_CONTRAST`] from the
//! cell's background colour (so white-on-blue tiles and black-on-white cells are alike).
//! Ink is split into 8-connected blobs; blobs touching the cell's edge are frames or
//! line remnants, not digits. A cell's glyph is its tallest blob with the blobs that
//! overlap it. Givens are told from pencil marks by height: not a fixed share of the
//! grid (HT.Sudoku's 1/18..1/12 misses GNOME Sudoku's 1/26) but relative to the tallest
//! glyphs actually present, see [`given_height_threshold`].

use image::{GrayImage, Luma, RgbImage};

use crate::vision::geometry::Rect;
use crate::vision::locate::regions::Regions;
use crate::vision::locate::regions::INK_CONTRAST;
use crate::vision::locate::Lattice;
use components::{Flood, Neighbours};

/// A glyph whose ink covers more of its box than this is a block, not a digit.
const MAX_FILL: f32 = 0.8;
/// A glyph inside a cursor block is at least this share of the block's height (less is
/// a digit's own counter, in a bold digit taken for a block).
const MIN_INSIDE_BLOCK: f32 = 0.4;
/// A flat block with no glyph inside is empty (a block cursor, a swatch) when more than
/// a third as wide as it is high; a narrower bar of a digit's height may be a 1 (a
/// pencil mark's 1 is a bar too).
const MIN_BLOCK_ASPECT: u32 = 3;
/// A block with no glyph inside is a cursor when this share of it is its own colour.
const MIN_BLOCK_FLAT: f32 = 0.9;

/// The digit-like mark in one cell.
#[derive(Debug, Clone)]
pub struct Glyph {
    /// Bounding box in picture pixels.
    pub bbox: Rect,
    /// Ink strength 0 (background) to 255 (full ink) over the bounding box.
    pub ink: GrayImage,
    /// Ink the cell cannot be proven empty of, yet no glyph could be cut from it (a
    /// digit joined to the cell's edge): the cell is doubtful, never empty.
    pub doubtful: bool,
    /// No other ink in the cell (past its frame): pencil marks come several to a cell,
    /// a digit alone.
    pub alone: bool,
    /// Cut from ink fainter than the ink contrast (a hairline face on black): a
    /// digit's mark, never a pencil mark, so below the givens' height it is doubtful.
    pub faint: bool,
    /// Cut from inside a block of ink (inverse video: a terminal's cursor on a digit).
    /// The block is the cell's ink, whatever the digit's height.
    pub inverse: bool,
}

impl Glyph {
    pub fn height(&self) -> f32 {
        self.bbox.h
    }

    /// The glyph as dark ink on white, for OCR and debug pictures.
    pub fn dark_on_light(&self) -> GrayImage {
        let mut out = self.ink.clone();
        for p in out.pixels_mut() {
            p.0[0] = 255 - p.0[0];
        }
        out
    }
}

/// Finds the glyph (the tallest mark, if any) in each of the 81 cells.
pub fn find_glyphs(img: &RgbImage, regions: &Regions, lattice: &Lattice) -> Vec<Option<Glyph>> {
    let backgrounds: Vec<[u8; 3]> = (0..81)
        .map(|i| match lattice.labels[i] {
            Some(l) => regions.regions[l as usize].mean(),
            None => border_colour(img, &lattice.cells[i]),
        })
        .collect();
    // What an empty cell's middle holds in this picture: most cells are empty, so the
    // median cell's. Faint ink is fainter than a digit's but stronger than that (an LCD
    // face's unlit segments, drawn in every cell).
    let mut middles: Vec<u8> = (0..81)
        .map(|i| middle_contrast(img, &lattice.cells[i], backgrounds[i]))
        .collect();
    middles.sort_unstable();
    let faint = middles[40]
        .saturating_add(FAINT_CONTRAST)
        .min(INK_CONTRAST / 2);
    (0..81)
        .map(|i| cell_glyph(img, &lattice.cells[i], backgrounds[i], faint))
        .collect()
}

/// The background of a cell not found as a region: the per-channel median of a ring
/// inset from the cell's edge by a tenth of its size (past grid-line remnants, short of
/// a centred digit). A median, not the commonest colour: after JPEG no two pixels of a
/// flat fill need be equal.
fn border_colour(img: &RgbImage, r: &Rect) -> [u8; 3] {
    let inset = (r.w.min(r.h) * 0.1).max(1.0);
    let (x0, y0) = ((r.x + inset).max(0.0) as u32, (r.y + inset).max(0.0) as u32);
    let x1 = ((r.x + r.w - 1.0 - inset).max(0.0) as u32).min(img.width().saturating_sub(1));
    let y1 = ((r.y + r.h - 1.0 - inset).max(0.0) as u32).min(img.height().saturating_sub(1));
    if x1 < x0 || y1 < y0 {
        return [255, 255, 255];
    }
    let mut ring: Vec<[u8; 3]> = Vec::new();
    for x in x0..=x1 {
        ring.push(img.get_pixel(x, y0).0);
        ring.push(img.get_pixel(x, y1).0);
    }
    for y in y0..=y1 {
        ring.push(img.get_pixel(x0, y).0);
        ring.push(img.get_pixel(x1, y).0);
    }
    let mut out = [0u8; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let mut v: Vec<u8> = ring.iter().map(|p| p[c]).collect();
        v.sort_unstable();
        *o = v[v.len() / 2];
    }
    out
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u8 {
    a[0].abs_diff(b[0])
        .max(a[1].abs_diff(b[1]))
        .max(a[2].abs_diff(b[2]))
}

/// The glyph of one cell on background `bg`. Where ink past `faint` (weaker than the ink
/// contrast) makes a digit's mark and stronger ink makes none, the glyph is cut from
/// the faint ink, else the cell is doubtful.
fn cell_glyph(img: &RgbImage, cell: &Rect, bg: [u8; 3], faint: u8) -> Option<Glyph> {
    let found = glyph_in(img, cell, bg, 0, false, INK_CONTRAST);
    // A digit in inverse video is read as it is: its block explains the cell's ink
    // (play-sudoku's cursor on a given 6, 13 px in a 50 px cell, was made doubtful by
    // the faint-ink check below, which found the block).
    if let Some(g) = found
        .as_ref()
        .filter(|g| g.height() >= EDGE_INK_CHECK * cell.h || g.inverse)
    {
        if off_centre(&g.bbox, cell) {
            // A column of pencil marks JPEG has run together, along the cell's side:
            // as tall as a digit, but neither a digit nor a pencil mark.
            return Some(doubtful_glyph(cell));
        }
        return found;
    }
    // No digit-sized glyph: the cell is empty only if no faint ink makes a digit-sized
    // mark in its middle (a light player digit, JPEG taking its thin strokes), and no
    // ink joined to its edge reaches its middle (a digit merged with a line remnant, or
    // cut by a box drawn too tight).
    if faint_digit(img, cell, bg, faint) {
        // Cut at the faint bar, the readers may name it; no glyph there is doubtful.
        return Some(
            glyph_in(img, cell, bg, 0, false, faint)
                .filter(|g| g.height() >= EDGE_INK_CHECK * cell.h && !off_centre(&g.bbox, cell))
                .unwrap_or_else(|| doubtful_glyph(cell)),
        );
    }
    if !edge_ink_in_middle(img, cell, bg) {
        return found;
    }
    // A digit drawn flush against one side of its cell (pygame's Game Sudoku draws its
    // digits from the cell's top: a bold 8 touches the box line above it) is whole in
    // the box: the blob that touches that side, crosses nothing and stands centred, of
    // a digit's size, is the glyph. Cut further in, it would lose its top.
    if let Some(g) = glyph_in(img, cell, bg, 0, true, INK_CONTRAST).filter(|g| flush_digit(g, cell))
    {
        return Some(g);
    }
    let k = EDGE_INSET * cell.w.min(cell.h);
    let inner = Rect {
        x: cell.x + k,
        y: cell.y + k,
        w: cell.w - 2.0 * k,
        h: cell.h - 2.0 * k,
    };
    // Further in, past the frame and the line remnants, what joins the digit to the
    // edge is a thin streak: the tallest blob there is the digit, unless it crosses the
    // whole box (a line, not a digit).
    if let Some(g) = glyph_in(img, &inner, bg, 0, true, INK_CONTRAST) {
        if g.height() >= EDGE_INK_CHECK * cell.h {
            return Some(g);
        }
    }
    Some(doubtful_glyph(cell))
}

/// Whether a glyph cut with the blobs touching the cell's edge is a digit drawn flush
/// against one side: digit-sized (taller than [`EDGE_INK_CHECK`], shorter than
/// [`FLUSH_MAX_HEIGHT`] and narrower than [`OUTLINE_WIDTH`] of the cell), centred, and
/// touching at most one side of the box (a frame or a line remnant touches two or
/// crosses it).
fn flush_digit(g: &Glyph, cell: &Rect) -> bool {
    let b = &g.bbox;
    let (x0, y0) = (cell.x.round().max(0.0), cell.y.round().max(0.0));
    let (x1, y1) = ((cell.x + cell.w).round(), (cell.y + cell.h).round());
    let sides = [b.x <= x0, b.y <= y0, b.x + b.w >= x1, b.y + b.h >= y1];
    !g.doubtful
        && b.h >= EDGE_INK_CHECK * cell.h
        && b.h <= FLUSH_MAX_HEIGHT * cell.h
        && b.w <= OUTLINE_WIDTH * cell.w
        && !off_centre(b, cell)
        && sides.iter().filter(|&&s| s).count() <= 1
}

/// Ink this much stronger than an empty cell's may be a faint digit's (a hairline
/// face's antialiased strokes on black peak at 75, most of them under half
/// [`INK_CONTRAST`]).
const FAINT_CONTRAST: u8 = INK_CONTRAST / 4;

/// A digit is at most this share of its cell's height (a bar taller is a line).
const FLUSH_MAX_HEIGHT: f32 = 0.9;

/// The strongest ink in the middle of a cell (x 40-60%, y 30-70%), which every digit
/// crosses: most cells have no ink there at all.
fn middle_contrast(img: &RgbImage, cell: &Rect, bg: [u8; 3]) -> u8 {
    let (x0, y0) = (
        (cell.x + 0.4 * cell.w).max(0.0) as u32,
        (cell.y + 0.3 * cell.h).max(0.0) as u32,
    );
    let (x1, y1) = (
        (cell.x + 0.6 * cell.w).max(0.0) as u32,
        (cell.y + 0.7 * cell.h).max(0.0) as u32,
    );
    let (x1, y1) = (x1.min(img.width()), y1.min(img.height()));
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| distance(img.get_pixel(x, y).0, bg))
        .max()
        .unwrap_or(0)
}

/// Whether ink past `faint` makes a digit-sized mark, centred, in a cell that holds no
/// pencil marks: not a flat block (a cursor), not made of marks.
fn faint_digit(img: &RgbImage, cell: &Rect, bg: [u8; 3], faint: u8) -> bool {
    if middle_contrast(img, cell, bg) <= faint {
        return false;
    }
    let Some(inked) = InkBox::of(img, cell, bg) else {
        return false;
    };
    // Pencil marks (two or more in the cell) join in their faint halos. Marks within
    // a glyph's stacking gap of each other are the pieces of one glyph (a hairline
    // digit broken where its strokes fade: Lato Hairline's 2 as its arc and its foot,
    // a pixel apart), not marks that stand in their own places; so are marks within
    // twice that gap that faint ink joins into one digit-sized mark, centred (Lato
    // Hairline's 3 at 50 px, broken in four places, its foot 4 px from its bowl; marks
    // in their own places stand a third of the cell apart).
    let marks: Vec<Blob> = inked
        .blobs(false)
        .into_iter()
        .filter(|b| b.mark_like(inked.w, inked.h))
        .collect();
    let boxes: Vec<[u32; 4]> = marks.iter().map(|b| [b.x0, b.y0, b.x1, b.y1]).collect();
    let faint_blobs = inked.blobs_over(faint, false);
    let one_digit = |b: &Blob| {
        let r = inked.rect_of(b);
        marks.iter().all(|m| m.inside(b))
            && r.h >= EDGE_INK_CHECK * cell.h
            && r.w <= OUTLINE_WIDTH * cell.w
            && !off_centre(&r, cell)
    };
    let gap = stack_gap(inked.h);
    let pieces = dots::clusters(&boxes, gap);
    if pieces.len() >= 2
        && (dots::clusters(&boxes, 2 * gap).len() >= 2 || !faint_blobs.iter().any(one_digit))
    {
        return false;
    }
    // Strong marks within the stacking gap of each other, together a digit's size and
    // centred, are a hairline digit broken where its strokes fade (Lato Hairline's 5,
    // its bowl apart from its stem), not a pencil mark.
    if let [([x0, y0, x1, y1], n)] = pieces[..] {
        let r = inked.rect_of(&Blob { x0, y0, x1, y1 });
        if n >= 2
            && r.h >= EDGE_INK_CHECK * cell.h
            && r.w <= OUTLINE_WIDTH * cell.w
            && !off_centre(&r, cell)
        {
            return true;
        }
    }
    // Faint blobs whose boxes touch (no blank row or column between them) are one
    // mark, a stroke broken where it fades, if ink over the ink contrast is among them
    // (Lato Hairline's 5 at 18 px: its flag, topped by a strong bar, and its bowl, each
    // under a digit's height). All faint, they are an LCD's unlit segments; a blank
    // line apart, pencil marks in JPEG's halo.
    let faint_boxes: Vec<[u32; 4]> = faint_blobs
        .iter()
        .map(|b| [b.x0, b.y0, b.x1, b.y1])
        .collect();
    dots::clusters(&faint_boxes, 1)
        .iter()
        .any(|&([x0, y0, x1, y1], n)| {
            let b = &Blob { x0, y0, x1, y1 };
            if n >= 2 && inked.count_over(b, INK_CONTRAST) == 0 {
                return false;
            }
            let inked_pixels = inked.count_over(b, faint);
            let area = ((b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1)) as f32;
            if inked_pixels as f32 > MAX_FILL * area {
                return false; // a flat block: a cursor, a swatch
            }
            let mark = inked.rect_of(b);
            mark.h >= EDGE_INK_CHECK * cell.h && !off_centre(&mark, cell)
        })
}

/// The mark of a cell that is not proven empty, yet holds no glyph to read.
fn doubtful_glyph(cell: &Rect) -> Glyph {
    doubtful_at(Rect {
        x: cell.x + cell.w * 0.3,
        y: cell.y + cell.h * 0.3,
        w: cell.w * 0.4,
        h: cell.h * 0.4,
    })
}

/// A doubtful glyph over `bbox`: ink no reader is shown.
fn doubtful_at(bbox: Rect) -> Glyph {
    Glyph {
        bbox,
        ink: GrayImage::new(1, 1),
        doubtful: true,
        alone: false,
        faint: false,
        inverse: false,
    }
}

/// True when a glyph's centre lies more than [`MAX_OFF_CENTRE`] of the cell's width
/// from the cell's centre, left or right: apps centre their digits; pencil marks stand
/// in three columns, the outer two a third of the cell off the centre.
fn off_centre(glyph: &Rect, cell: &Rect) -> bool {
    (glyph.center().x - cell.center().x).abs() > MAX_OFF_CENTRE * cell.w
}

const MAX_OFF_CENTRE: f32 = 0.22;

/// Below this share of the cell height a glyph does not explain the cell's ink, and
/// ink joined to the cell edge is looked at (pencil marks are 0.15-0.3 of a cell).
const EDGE_INK_CHECK: f32 = 0.35;
/// A cell is looked at again this share of its size in from every side.
const EDGE_INSET: f32 = 0.12;

/// True when ink connected to the box's edge has pixels in the middle of the box (its
/// central 40% each way): what a frame, a selection ring or a line remnant never has.
fn edge_ink_in_middle(img: &RgbImage, cell: &Rect, bg: [u8; 3]) -> bool {
    let cx0 = cell.x.round().max(0.0) as u32;
    let cy0 = cell.y.round().max(0.0) as u32;
    let cx1 = ((cell.x + cell.w).round().max(0.0) as u32).min(img.width());
    let cy1 = ((cell.y + cell.h).round().max(0.0) as u32).min(img.height());
    if cx1 <= cx0 + 4 || cy1 <= cy0 + 4 {
        return false;
    }
    let (w, h) = (cx1 - cx0, cy1 - cy0);
    let is_ink = |x: u32, y: u32| distance(img.get_pixel(cx0 + x, cy0 + y).0, bg) > INK_CONTRAST;
    let mut flood = Flood::new(w, h, Neighbours::Eight, is_ink);
    for x in 0..w {
        for y in [0, h - 1] {
            flood.seed(x, y);
        }
    }
    for y in 0..h {
        for x in [0, w - 1] {
            flood.seed(x, y);
        }
    }
    let (mx0, mx1) = (w * 3 / 10, w - w * 3 / 10);
    let (my0, my1) = (h * 3 / 10, h - h * 3 / 10);
    let mut middle = false;
    flood.fill(|px, py| {
        middle |= px >= mx0 && px < mx1 && py >= my0 && py < my1;
    });
    middle
}

/// The glyph in a box of the picture on background `bg`; `depth` 1 inside a cursor block.
/// Blobs touching the box's edge are frames, unless `keep_touching` (a box inside the
/// cell): then only blobs crossing the whole box are left out.
fn glyph_in(
    img: &RgbImage,
    cell: &Rect,
    bg: [u8; 3],
    depth: u32,
    keep_touching: bool,
    contrast: u8,
) -> Option<Glyph> {
    let inked = InkBox::of(img, cell, bg)?;
    let blobs = inked.blobs_over(contrast, keep_touching);
    let (mut g, dotted) = digit_blob(&blobs, inked.h)?;
    // A stroke broken where it fades: the pieces within the glyph's rows, 3 px wide or
    // more, that ink over half the contrast joins to it are the glyph's (Lato
    // Hairline's 4 at 30 px, drawn without its crossbar: the foot of its diagonal,
    // apart from its stem, had it read as a 1). Not above or below it: JPEG's halo
    // joins a cell's pencil marks so; not a streak a pixel or two wide, a colour
    // fringe's. The fainter ink is looked at only where such a piece stands (most
    // glyphs are one blob).
    let (y0, y1) = (g.y0, g.y1);
    let pieces: Vec<Blob> = blobs
        .iter()
        .filter(|b| !b.inside(&g) && b.y0 >= y0 && b.y1 <= y1 && b.x1 >= b.x0 + 2)
        .copied()
        .collect();
    if dotted.is_none() && !pieces.is_empty() {
        let joined = inked.blobs_over(contrast / 2, keep_touching);
        if let Some(whole) = joined.iter().find(|j| g.inside(j)) {
            for b in pieces.iter().filter(|b| b.inside(whole)) {
                g = g.union(b);
            }
        }
    }
    let (gw, gh) = (g.x1 - g.x0 + 1, g.y1 - g.y0 + 1);
    if gh < 4 {
        return None;
    }
    match solid_block(img, &inked, &g, depth, bg) {
        Block::No => {}
        Block::Holds(inside) => return Some(inside),
        Block::Empty
            if gw * MIN_BLOCK_ASPECT > gh
                || gw < 2
                || (gh as f32) < EDGE_INK_CHECK * inked.h as f32 =>
        {
            return None
        }
        // A flat bar of a digit's height, 2 px wide or more (a pixel-wide one is a
        // fringe or a bevel's edge): an I-beam cursor, or a 1 blur has filled to a bar.
        // Not proven empty.
        Block::Empty => return Some(doubtful_at(inked.rect_of(&g))),
    }
    let ink = inked.glyph_ink(&g);
    let ink = if let Some(gap) = dotted {
        dots::join(&ink, gap)
    } else {
        match outline::filled(&ink) {
            Outline::Filled(solid) => solid,
            Outline::Unsure => return Some(doubtful_at(inked.rect_of(&g))),
            Outline::No => ink,
        }
    };
    Some(Glyph {
        bbox: inked.rect_of(&g),
        ink,
        doubtful: false,
        alone: !blobs
            .iter()
            .any(|b| !b.inside(&g) && b.mark_like(inked.w, inked.h) && !b.speck(inked.h)),
        faint: contrast < INK_CONTRAST,
        inverse: depth > 0,
    })
}

/// A box of the picture as each pixel's colour distance from the background: `(x0,
/// y0)` its top-left corner in the picture, `w` by `h`.
struct InkBox {
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    dist: Vec<u8>,
}

impl InkBox {
    /// `None` for a box too small to hold a glyph.
    fn of(img: &RgbImage, cell: &Rect, bg: [u8; 3]) -> Option<InkBox> {
        let x0 = cell.x.round().max(0.0) as u32;
        let y0 = cell.y.round().max(0.0) as u32;
        let x1 = ((cell.x + cell.w).round() as u32).min(img.width());
        let y1 = ((cell.y + cell.h).round() as u32).min(img.height());
        if x1 <= x0 + 4 || y1 <= y0 + 4 {
            return None;
        }
        let (w, h) = (x1 - x0, y1 - y0);
        // Row slices, not pixel by pixel: this runs on every cell of every read.
        let stride = img.width() as usize * 3;
        let mut dist = Vec::with_capacity((w * h) as usize);
        for y in y0..y1 {
            let start = y as usize * stride + x0 as usize * 3;
            let row = &img.as_raw()[start..start + w as usize * 3];
            dist.extend(
                row.chunks_exact(3)
                    .map(|p| distance([p[0], p[1], p[2]], bg)),
            );
        }
        Some(InkBox { x0, y0, w, h, dist })
    }

    /// How many pixels of a blob's box are more than `contrast` from the background.
    fn count_over(&self, b: &Blob, contrast: u8) -> usize {
        (b.y0..=b.y1)
            .flat_map(|y| (b.x0..=b.x1).map(move |x| (x, y)))
            .filter(|&(x, y)| self.dist[(y * self.w + x) as usize] > contrast)
            .count()
    }

    /// A blob's box in picture pixels.
    fn rect_of(&self, b: &Blob) -> Rect {
        Rect {
            x: (self.x0 + b.x0) as f32,
            y: (self.y0 + b.y0) as f32,
            w: (b.x1 - b.x0 + 1) as f32,
            h: (b.y1 - b.y0 + 1) as f32,
        }
    }

    fn is_ink(&self, x: u32, y: u32) -> bool {
        self.dist[(y * self.w + x) as usize] > INK_CONTRAST
    }

    /// The ink's connected blobs (8-neighbourhood), frames and edge streaks left out.
    fn blobs(&self, keep_touching: bool) -> Vec<Blob> {
        self.blobs_over(INK_CONTRAST, keep_touching)
    }

    /// [`InkBox::blobs`] of the pixels over `contrast` from the background.
    fn blobs_over(&self, contrast: u8, keep_touching: bool) -> Vec<Blob> {
        let (w, h) = (self.w, self.h);
        let mut flood = Flood::new(w, h, Neighbours::Eight, |x, y| {
            self.dist[(y * w + x) as usize] > contrast
        });
        let mut blobs = Vec::new();
        while let Some((x, y)) = flood.next_component() {
            let mut b = Blob {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            };
            let mut pixels = 0u32;
            flood.fill(|px, py| {
                b.x0 = b.x0.min(px);
                b.x1 = b.x1.max(px);
                b.y0 = b.y0.min(py);
                b.y1 = b.y1.max(py);
                pixels += 1;
            });
            let touches = b.x0 == 0 || b.y0 == 0 || b.x1 == w - 1 || b.y1 == h - 1;
            let crosses = (b.x0 == 0 && b.x1 == w - 1) || (b.y0 == 0 && b.y1 == h - 1);
            if (!touches || (keep_touching && !crosses))
                && !edge_streak(&b, w, h)
                && !outline(&b, pixels, w, h)
            {
                blobs.push(b);
            }
        }
        blobs
    }

    /// The glyph's ink as strength relative to its strongest ink, 0 to 255.
    fn glyph_ink(&self, g: &Blob) -> GrayImage {
        let (gw, gh) = (g.x1 - g.x0 + 1, g.y1 - g.y0 + 1);
        let peak = (g.y0..=g.y1)
            .flat_map(|y| (g.x0..=g.x1).map(move |x| (x, y)))
            .map(|(x, y)| self.dist[(y * self.w + x) as usize])
            .max()
            .unwrap_or(255)
            .max(1) as f32;
        GrayImage::from_fn(gw, gh, |x, y| {
            let d = self.dist[((g.y0 + y) * self.w + g.x0 + x) as usize] as f32;
            Luma([((d / peak).min(1.0) * 255.0) as u8])
        })
    }
}

/// A hollow blob nearly as wide as the box and most of its height is the cell's own
/// outline (an entry widget's sunken frame, drawn inside a cell with no lines around
/// it), not a digit: digits are at most about two thirds as wide as their cell.
fn outline(b: &Blob, pixels: u32, w: u32, h: u32) -> bool {
    let (bw, bh) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
    bw as f32 >= OUTLINE_WIDTH * w as f32
        && bh as f32 >= OUTLINE_HEIGHT * h as f32
        && (pixels as f32) <= OUTLINE_FILL * (bw * bh) as f32
}

/// An outline spans at least this share of the box's width (no digit does) ...
const OUTLINE_WIDTH: f32 = 0.8;
/// ... and this share of its height (an entry is wider than tall) ...
const OUTLINE_HEIGHT: f32 = 0.6;
/// ... and its ink covers at most this share of its own box (a cursor block filled
/// with colour is no outline: it may hold a digit in inverse video; an entry's frame
/// seen at half the ink contrast, its light edges and focus ring too, covers 30%).
const OUTLINE_FILL: f32 = 0.5;

/// What a solid block of ink (over [`MAX_FILL`] of its box) is.
enum Block {
    /// Not a solid block: a digit's ink.
    No,
    /// A cursor block holding a digit in inverse video.
    Holds(Glyph),
    /// A flat block with nothing inside (a text cursor, a colour swatch): no digit.
    Empty,
}

/// A solid block (a text cursor, a colour swatch) is not a digit: digits cover at most
/// about 60% of their box, a bold "8" included. A terminal's cursor may hold a digit in
/// inverse video: it is looked for inside the block, with the block's colour as
/// background (`depth` 1 there).
fn solid_block(img: &RgbImage, inked: &InkBox, g: &Blob, depth: u32, bg: [u8; 3]) -> Block {
    let (gw, gh) = (g.x1 - g.x0 + 1, g.y1 - g.y0 + 1);
    let colours: Vec<[u8; 3]> = (g.y0..=g.y1)
        .flat_map(|y| (g.x0..=g.x1).map(move |x| (x, y)))
        .filter(|&(x, y)| inked.is_ink(x, y))
        .map(|(x, y)| img.get_pixel(inked.x0 + x, inked.y0 + y).0)
        .collect();
    let fill = colours.len() as f32 / (gw * gh) as f32;
    let solid = fill > MAX_FILL;
    if !solid && (depth > 0 || fill < MIN_FLAT_BLOCK_FILL) {
        return Block::No;
    }
    if depth > 0 {
        return Block::Empty;
    }
    let mut by_lum = colours;
    by_lum.sort_by_key(|p| p[0] as u32 * 3 + p[1] as u32 * 6 + p[2] as u32);
    let block_colour = by_lum[by_lum.len() / 2];
    // A bold digit in inverse video takes more of a block, and may reach its edge (a
    // terminal's bold 4, its bar as wide as the character cell): in a flat one-colour
    // block framed by its own ink, it is looked for with ink touching the edge kept.
    let flat = flat_block(inked, g, &by_lum, block_colour, bg);
    if !solid && !flat {
        return Block::No;
    }
    let block = inked.rect_of(g);
    let tries: &[bool] = if flat { &[false, true] } else { &[false] };
    for &keep_touching in tries {
        if let Some(inside) = glyph_in(
            img,
            &block,
            block_colour,
            depth + 1,
            keep_touching,
            INK_CONTRAST,
        ) {
            if inside.height() >= MIN_INSIDE_BLOCK * gh as f32 {
                return Block::Holds(inside);
            }
        }
    }
    if !solid {
        return Block::No; // nothing inside: the ink as it is
    }
    // Nothing inside. A cursor block is one flat colour; a blot of uneven ink (a bold
    // digit whose counters JPEG and colour fringes filled in) is not proven empty: it
    // goes on as a glyph, for the readers and the rules to name or doubt.
    let flat = by_lum
        .iter()
        .filter(|p| distance(**p, block_colour) <= INK_CONTRAST / 2)
        .count();
    if flat as f32 >= MIN_BLOCK_FLAT * by_lum.len() as f32 {
        Block::Empty
    } else {
        Block::No
    }
}

/// Whether a solid blob is a flat one-colour block (a terminal's cursor) holding a
/// digit in inverse video: every pixel along its box's four sides is ink, and every ink
/// pixel is the block's colour or between it and the background (the digit's
/// antialiased edge), most of them the block's colour. Colour fringes and JPEG's blur
/// (a bold digit whose counters filled in) are off that line.
fn flat_block(inked: &InkBox, g: &Blob, colours: &[[u8; 3]], block: [u8; 3], bg: [u8; 3]) -> bool {
    let top_bottom = (g.x0..=g.x1).flat_map(|x| [(x, g.y0), (x, g.y1)]);
    let sides = (g.y0..=g.y1).flat_map(|y| [(g.x0, y), (g.x1, y)]);
    if !top_bottom.chain(sides).all(|(x, y)| inked.is_ink(x, y)) {
        return false;
    }
    let on_line = colours
        .iter()
        .all(|&p| off_line(p, block, bg) <= INK_CONTRAST / 2);
    let own = colours
        .iter()
        .filter(|&&p| distance(p, block) <= INK_CONTRAST / 2)
        .count();
    on_line && own as f32 >= MIN_FLAT_BLOCK_OWN * colours.len() as f32
}

/// A flat block holding a digit covers at least this share of its box (a bold digit
/// in inverse video leaves more of it than [`MAX_FILL`]; a "0" drawn as a thin
/// rectangle covers half of its box).
const MIN_FLAT_BLOCK_FILL: f32 = 0.6;

/// At least this share of a flat block's ink is the block's own colour.
const MIN_FLAT_BLOCK_OWN: f32 = 0.7;

/// How far colour `p` is from the nearest blend of `a` and `b` (each channel).
fn off_line(p: [u8; 3], a: [u8; 3], b: [u8; 3]) -> u8 {
    let (pa, ba): (Vec<f32>, Vec<f32>) = (0..3)
        .map(|c| (p[c] as f32 - a[c] as f32, b[c] as f32 - a[c] as f32))
        .unzip();
    let len = ba.iter().map(|v| v * v).sum::<f32>();
    let t = if len > 0.0 {
        (pa.iter().zip(&ba).map(|(x, y)| x * y).sum::<f32>() / len).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (0..3)
        .map(|c| (pa[c] - t * ba[c]).abs())
        .fold(0.0f32, f32::max)
        .min(255.0) as u8
}

mod blobs;
pub mod components;
pub mod dots;
mod heights;
pub mod outline;
pub mod signature;
use blobs::{digit_blob, edge_streak, stack_gap, Blob};
pub use heights::{doubt_lone_marks, given_height_threshold};
use outline::Outline;

#[cfg(test)]
mod tests;
