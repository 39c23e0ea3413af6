//! A cell's look (the mean grey of 6x6 blocks of its middle 70%), to see what an
//! input changed without reading digits.

use super::*;

/// Grey levels a block of a cell must change by for the cell to look different.
const LOOK_CHANGE: i32 = 12;

/// A cell's look: the mean grey of 6x6 blocks of its middle 70%.
pub(super) type Look = [u8; 36];

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// The look of every cell in a capture taken now.
    pub(super) fn cell_looks(
        &mut self,
        map: &CellMap,
        origin: (i32, i32),
    ) -> Result<[Look; 81], BotError> {
        let capture = self.screen.capture()?;
        Ok(cell_looks(&capture, map, origin))
    }
}

/// The look of each cell of `map` in `picture` (a capture whose top-left corner is at
/// `origin` on the screen).
fn cell_looks(picture: &RgbaImage, map: &CellMap, origin: (i32, i32)) -> [Look; 81] {
    let cell = (map.grid.width.min(map.grid.height) as f32 / 9.0).max(1.0);
    let half = cell * 0.35;
    std::array::from_fn(|i| {
        let c = map.center(i);
        let (cx, cy) = ((c.x - origin.0) as f32, (c.y - origin.1) as f32);
        let mut look = [0u8; 36];
        for (b, v) in look.iter_mut().enumerate() {
            let (bx, by) = ((b % 6) as f32, (b / 6) as f32);
            let x0 = cx - half + bx * half / 3.0;
            let y0 = cy - half + by * half / 3.0;
            let (mut sum, mut n) = (0u32, 0u32);
            let step = (half / 9.0).max(1.0);
            let mut y = y0;
            while y < y0 + half / 3.0 {
                let mut x = x0;
                while x < x0 + half / 3.0 {
                    if x >= 0.0
                        && y >= 0.0
                        && (x as u32) < picture.width()
                        && (y as u32) < picture.height()
                    {
                        let p = picture.get_pixel(x as u32, y as u32).0;
                        sum += (p[0] as u32 * 3 + p[1] as u32 * 6 + p[2] as u32) / 10;
                        n += 1;
                    }
                    x += step;
                }
                y += step;
            }
            *v = sum.checked_div(n).unwrap_or(0) as u8;
        }
        look
    })
}

pub(super) fn looks_differ(a: &Look, b: &Look) -> bool {
    a.iter()
        .zip(b)
        .any(|(&x, &y)| (x as i32 - y as i32).abs() > LOOK_CHANGE)
}
