//! Where the grid is: the part of the capture that is read, the grid's area in it, and
//! the windows that cover it.

use image::RgbaImage;

use super::{Bot, GridReader};
use crate::input::Input;
use crate::screen::{Screen, ScreenRect, WindowView};
use crate::vision::Reading;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Cuts the capture to the configured region; returns the picture and its offset in
    /// the window.
    pub(super) fn crop_to_region(&self, capture: RgbaImage) -> (RgbaImage, (u32, u32)) {
        match self.config.window.region {
            Some(r) if r.x < capture.width() && r.y < capture.height() => {
                let w = r.width.min(capture.width() - r.x);
                let h = r.height.min(capture.height() - r.y);
                (
                    image::imageops::crop_imm(&capture, r.x, r.y, w, h).to_image(),
                    (r.x, r.y),
                )
            }
            _ => (capture, (0, 0)),
        }
    }

    /// When the last grid position is known and a window covers it, why we wait.
    pub(super) fn cover_over_known_grid(
        &self,
        view: &WindowView,
        region: (u32, u32),
    ) -> Option<String> {
        let (x, y, w, h) = self.grid_area?;
        let area = ScreenRect {
            x: view.window.rect.x + (region.0 + x) as i32,
            y: view.window.rect.y + (region.1 + y) as i32,
            width: w,
            height: h,
        };
        covered(view, &area)
    }
}

/// Why we must wait when a window stacked above covers `area`, else `None`.
pub(super) fn covered(view: &WindowView, area: &ScreenRect) -> Option<String> {
    view.covering(area)
        .first()
        .map(|w| format!("{} covers the grid", w.describe()))
}

/// When the grid at `area` (x, y, width, height) fills less than two fifths of
/// `picture`: the grid and one cell around it, cut out, with its top-left corner.
pub(super) fn grid_with_margin(
    picture: &RgbaImage,
    (x, y, w, h): (u32, u32, u32, u32),
) -> Option<(u32, u32, RgbaImage)> {
    let (pw, ph) = picture.dimensions();
    if u64::from(w) * u64::from(h) * 5 >= u64::from(pw) * u64::from(ph) * 2 {
        return None;
    }
    let margin = w.max(h) / 9;
    let x0 = x.saturating_sub(margin).min(pw);
    let y0 = y.saturating_sub(margin).min(ph);
    let x1 = x.saturating_add(w).saturating_add(margin).min(pw);
    let y1 = y.saturating_add(h).saturating_add(margin).min(ph);
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    Some((
        x0,
        y0,
        image::imageops::crop_imm(picture, x0, y0, x1 - x0, y1 - y0).to_image(),
    ))
}

/// The grid's bounding box in picture pixels (x, y, width, height), clamped to the
/// picture.
pub(super) fn picture_area(reading: &Reading, width: u32, height: u32) -> (u32, u32, u32, u32) {
    let (lo, hi) = crate::vision::Point::bounds(&reading.corners);
    let (x0, y0) = (lo.x.max(0.0) as u32, lo.y.max(0.0) as u32);
    let x1 = (hi.x.ceil() as u32).min(width);
    let y1 = (hi.y.ceil() as u32).min(height);
    (
        x0.min(width),
        y0.min(height),
        x1.saturating_sub(x0),
        y1.saturating_sub(y0),
    )
}
