//! Where the cells are on the screen, and the moves that fill them: cell centres from a
//! reading (or the configured grid), the number pad's buttons, arrow-key paths.

use super::*;
use crate::config::CellPlacement;
use crate::vision::{Point, Rect};

/// Where the cells of the grid lie on the screen right now.
#[derive(Debug, Clone)]
pub struct CellMap {
    centers: [ScreenPoint; 81],
    /// The grid's bounding box on the screen.
    pub grid: ScreenRect,
    /// Each cell's box in the pictures read (captures of the window, cropped to the
    /// configured region).
    boxes: Vec<Rect>,
}

impl CellMap {
    /// Maps a reading of a capture to screen pixels. `window` is the window's client
    /// area; `region` the part of it that was read (window pixels). The config's grid
    /// override, when set, replaces the detected cell positions.
    pub fn new(
        reading: &Reading,
        window: ScreenRect,
        region: (u32, u32),
        config: &Config,
    ) -> CellMap {
        let [dx, dy] = config.grid.click_offset;
        let base_x = window.x as f32;
        let base_y = window.y as f32;
        let mut centers = [ScreenPoint { x: 0, y: 0 }; 81];
        let boxes = reading.cells.iter().map(|c| c.cell_box).collect();
        if let Some(CellPlacement {
            origin: [ox, oy],
            cell_size: [cw, ch],
        }) = config.grid.cells
        {
            for (i, c) in centers.iter_mut().enumerate() {
                let (r, col) = ((i / 9) as f32, (i % 9) as f32);
                *c = round(
                    base_x + ox + cw * (col + 0.5) + dx,
                    base_y + oy + ch * (r + 0.5) + dy,
                );
            }
            let grid = ScreenRect {
                x: (base_x + ox) as i32,
                y: (base_y + oy) as i32,
                width: (cw * 9.0).ceil() as u32,
                height: (ch * 9.0).ceil() as u32,
            };
            return CellMap {
                centers,
                grid,
                boxes,
            };
        }
        let (rx, ry) = (base_x + region.0 as f32, base_y + region.1 as f32);
        for (i, c) in centers.iter_mut().enumerate() {
            let p = reading.cell_center(i);
            *c = round(rx + p.x + dx, ry + p.y + dy);
        }
        let (lo, hi) = Point::bounds(&reading.corners);
        let (x0, y0, x1, y1) = (lo.x, lo.y, hi.x, hi.y);
        let grid = ScreenRect {
            x: (rx + x0).floor() as i32,
            y: (ry + y0).floor() as i32,
            width: (x1 - x0).max(1.0).ceil() as u32,
            height: (y1 - y0).max(1.0).ceil() as u32,
        };
        CellMap {
            centers,
            grid,
            boxes,
        }
    }

    /// The centre of cell `index` (0..81) on the screen.
    pub fn center(&self, index: usize) -> ScreenPoint {
        self.centers[index]
    }

    /// The box of cell `index` in the pictures read.
    pub fn cell_box(&self, index: usize) -> Option<Rect> {
        self.boxes.get(index).copied()
    }
}

/// Where the configured pad button for `digit` is on the screen, if a pad is configured.
pub(super) fn pad_point(config: &Config, window: &ScreenRect, digit: u8) -> Option<ScreenPoint> {
    let pad = config.input.pad.as_ref()?;
    let [px, py] = *pad.get(usize::from(digit).checked_sub(1)?)?;
    Some(round(window.x as f32 + px, window.y as f32 + py))
}

/// Checks that the configuration's own click points (the grid override and the pad)
/// land inside the window; a point outside it is a configuration error.
pub(super) fn check_configured_points(
    config: &Config,
    map: &CellMap,
    window: &ScreenRect,
) -> Result<(), BotError> {
    let inside = |p: ScreenPoint| window.contains(p.x, p.y);
    let overridden = config.grid.cells.is_some() || config.grid.click_offset != [0.0, 0.0];
    if overridden {
        if let Some(i) = (0..81).find(|&i| !inside(map.center(i))) {
            return Err(BotError::Config(format!(
                "grid.origin, grid.cell_size and grid.click_offset put {} at {}, outside the window ({}x{} at {},{})",
                cell_name(i), map.center(i), window.width, window.height, window.x, window.y
            )));
        }
    }
    if config.input.method == Some(InputMethod::Pad) {
        for d in 1..=9u8 {
            match pad_point(config, window, d) {
                Some(p) if inside(p) => {}
                p => {
                    return Err(BotError::Config(format!(
                        "input.pad puts button {d} at {}, outside the window ({}x{} at {},{})",
                        p.map(|p| p.to_string()).unwrap_or_else(|| "nowhere".into()),
                        window.width,
                        window.height,
                        window.x,
                        window.y
                    )))
                }
            }
        }
    }
    Ok(())
}

pub(super) fn round(x: f32, y: f32) -> ScreenPoint {
    ScreenPoint {
        x: x.round() as i32,
        y: y.round() as i32,
    }
}

/// The moves that turn `current` into `solution`: every cell whose digit differs, row by
/// row (empty cells, and wrong digits when re-entering after verification).
pub fn plan_moves(current: &Grid, solution: &Grid, map: &CellMap) -> Vec<Move> {
    (0..81)
        .filter(|&i| current.cells()[i] != solution.cells()[i])
        .map(|i| Move {
            cell: i,
            digit: solution.cells()[i],
            at: map.center(i),
            clear: current.cells()[i] != 0,
        })
        .collect()
}

/// Arrow keys that move the selection from cell `from` to cell `to`.
pub fn arrow_path(from: usize, to: usize) -> Vec<Key> {
    let (fr, fc, tr, tc) = (
        (from / 9) as i32,
        (from % 9) as i32,
        (to / 9) as i32,
        (to % 9) as i32,
    );
    let mut keys = Vec::new();
    let vertical = if tr > fr { Key::Down } else { Key::Up };
    keys.extend(std::iter::repeat_n(
        vertical,
        (tr - fr).unsigned_abs() as usize,
    ));
    let horizontal = if tc > fc { Key::Right } else { Key::Left };
    keys.extend(std::iter::repeat_n(
        horizontal,
        (tc - fc).unsigned_abs() as usize,
    ));
    keys
}

/// Arrow keys from cell `from` to cell `to` (`arrow_path`'s length).
fn arrows_between(from: usize, to: usize) -> usize {
    (from / 9).abs_diff(to / 9) + (from % 9).abs_diff(to % 9)
}

/// Orders `moves` for a game played with arrow keys from cell `from`: the fewest arrow
/// keys in all, of three orders: row by row alternating direction (a snake) downwards
/// from the top, the same upwards from the bottom, and always the nearest cell next
/// (ties in reading order). Reading order costs about twice the keys of a snake.
pub(super) fn order_for_arrows(from: usize, moves: &mut [Move]) {
    let cost = |order: &[Move]| {
        let mut at = from;
        order.iter().fold(0, |sum, m| {
            let step = arrows_between(at, m.cell);
            at = m.cell;
            sum + step
        })
    };
    let snake = |m: &Move, down: bool| {
        let (r, c) = (m.cell / 9, m.cell % 9);
        let row = if down { r } else { 8 - r };
        let col = if row % 2 == 0 { c } else { 8 - c };
        row * 9 + col
    };
    let mut down = moves.to_vec();
    down.sort_by_key(|m| snake(m, true));
    let mut up = moves.to_vec();
    up.sort_by_key(|m| snake(m, false));
    let mut nearest = Vec::with_capacity(moves.len());
    let mut left = moves.to_vec();
    let mut at = from;
    while !left.is_empty() {
        let k = (0..left.len())
            .min_by_key(|&k| (arrows_between(at, left[k].cell), left[k].cell))
            .unwrap_or(0);
        let m = left.remove(k);
        at = m.cell;
        nearest.push(m);
    }
    let best = [down, up, nearest]
        .into_iter()
        .min_by_key(|order| cost(order))
        .unwrap_or_default();
    moves.copy_from_slice(&best);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_to(cells: &[usize]) -> Vec<Move> {
        cells
            .iter()
            .map(|&cell| Move {
                cell,
                digit: 1,
                at: ScreenPoint { x: 0, y: 0 },
                clear: false,
            })
            .collect()
    }

    #[test]
    fn moves_for_arrow_keys_go_the_shortest_of_a_snake_and_the_nearest_cell() {
        // Every cell of rows 1 and 2 from r1c1: a snake (right along row 1, left
        // along row 2) needs 17 arrows; reading order 8 + 9 + 8 = 25.
        let cells: Vec<usize> = (0..18).collect();
        let mut moves = moves_to(&cells);
        order_for_arrows(0, &mut moves);
        let order: Vec<usize> = moves.iter().map(|m| m.cell).collect();
        let expected: Vec<usize> = (0..9).chain((9..18).rev()).collect();
        assert_eq!(order, expected);
        // From the bottom right corner the snake runs upwards.
        let mut moves = moves_to(&[0, 80, 40]);
        order_for_arrows(80, &mut moves);
        assert_eq!(
            moves.iter().map(|m| m.cell).collect::<Vec<_>>(),
            [80, 40, 0]
        );
        // Nothing lost, nothing added.
        let cells = [3, 17, 22, 50, 51, 79];
        let mut moves = moves_to(&cells);
        order_for_arrows(40, &mut moves);
        let mut got: Vec<usize> = moves.iter().map(|m| m.cell).collect();
        got.sort_unstable();
        assert_eq!(got, cells);
    }

    #[test]
    fn arrow_path_goes_down_then_across() {
        assert_eq!(arrow_path(0, 10), vec![Key::Down, Key::Right]);
        assert_eq!(
            arrow_path(20, 0),
            vec![Key::Up, Key::Up, Key::Left, Key::Left]
        );
        assert!(arrow_path(5, 5).is_empty());
    }
}
