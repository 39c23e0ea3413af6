//! Plane projective transforms (homographies) between the picture and the grid.
//!
//! A homography is fixed by four point pairs (the grid's corners and the corners of the
//! 9x9 cell square); it maps a photo's skewed grid to a square for reading, and back
//! for clicking cells and drawing answers. Solved as the usual 8x8 linear system
//! (Hartley & Zisserman, "Multiple View Geometry", 4.1, with h33 = 1). A picture is
//! warped through one by [`bilinear`] sampling at the mapped points.
//!
//! Why not imageproc's `Projection::from_control_points`: it was tried (2026-11-25) and
//! gave the same readings of all 163 fixture pictures, but on an input of the overlay's
//! fuzz corpus it never returned (nalgebra's SVD, which it solves through, has no cap on
//! its iterations). The elimination here always ends.
//!
//! Also the picture's points and boxes ([`Point`], [`Rect`]), which every stage shares.

use image::GrayImage;

/// A point in picture pixels (x to the right, y down).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

impl Point {
    /// The smallest axis-aligned box holding `points` (a cell's or the grid's four
    /// corners), as its top-left (least x and y) and bottom-right (greatest x and y)
    /// corners. NaN coordinates are passed over; with no points the box is inside out,
    /// from `f32::MAX` to `f32::MIN`.
    pub fn bounds(points: &[Point]) -> (Point, Point) {
        let mut lo = Point {
            x: f32::MAX,
            y: f32::MAX,
        };
        let mut hi = Point {
            x: f32::MIN,
            y: f32::MIN,
        };
        for p in points {
            lo = Point {
                x: lo.x.min(p.x),
                y: lo.y.min(p.y),
            };
            hi = Point {
                x: hi.x.max(p.x),
                y: hi.y.max(p.y),
            };
        }
        (lo, hi)
    }
}

/// An axis-aligned box in picture pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn center(&self) -> Point {
        Point {
            x: self.x + self.w / 2.0,
            y: self.y + self.h / 2.0,
        }
    }
}

/// The corners of an upright box: top-left, top-right, bottom-right, bottom-left.
pub fn box_corners(left: f32, top: f32, right: f32, bottom: f32) -> [Point; 4] {
    [
        Point { x: left, y: top },
        Point { x: right, y: top },
        Point {
            x: right,
            y: bottom,
        },
        Point { x: left, y: bottom },
    ]
}

/// A 3x3 projective transform, row-major, h[8] = 1.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Homography {
    pub h: [f64; 9],
}

impl Homography {
    pub const IDENTITY: Homography = Homography {
        h: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
    };

    /// The transform taking each `from[i]` to `to[i]`. `None` when three of the points
    /// are collinear (no such transform).
    pub fn from_points(from: [(f64, f64); 4], to: [(f64, f64); 4]) -> Option<Homography> {
        let mut a = [[0.0f64; 9]; 8];
        for i in 0..4 {
            let (x, y) = from[i];
            let (u, v) = to[i];
            a[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u];
            a[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v];
        }
        // Gaussian elimination with partial pivoting on the augmented 8x9 matrix.
        for col in 0..8 {
            let pivot = (col..8).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))?;
            if a[pivot][col].abs() < 1e-12 {
                return None;
            }
            a.swap(col, pivot);
            for row in 0..8 {
                if row != col {
                    let f = a[row][col] / a[col][col];
                    if f != 0.0 {
                        let pivot_row = a[col];
                        for (v, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                            *v -= f * p;
                        }
                    }
                }
            }
        }
        let mut h = [0.0; 9];
        for i in 0..8 {
            h[i] = a[i][8] / a[i][i];
        }
        h[8] = 1.0;
        Some(Homography { h })
    }

    /// The transform from the 9x9 cell square (u, v in 0..=9) to a quadrilateral given
    /// as top-left, top-right, bottom-right, bottom-left.
    pub fn grid_to_quad(corners: [Point; 4]) -> Option<Homography> {
        let to = corners.map(|p| (p.x as f64, p.y as f64));
        Homography::from_points([(0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0)], to)
    }

    /// Maps (x, y) through the transform.
    pub fn apply(&self, x: f32, y: f32) -> Point {
        let (x, y) = (x as f64, y as f64);
        let h = &self.h;
        let w = h[6] * x + h[7] * y + h[8];
        Point {
            x: ((h[0] * x + h[1] * y + h[2]) / w) as f32,
            y: ((h[3] * x + h[4] * y + h[5]) / w) as f32,
        }
    }

    /// The inverse transform (adjugate over determinant, normalised to h33 = 1).
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.h;
        let inv = [
            m[4] * m[8] - m[5] * m[7],
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8],
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6],
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        let det = m[0] * inv[0] + m[1] * inv[3] + m[2] * inv[6];
        if det.abs() < 1e-12 || inv[8].abs() < 1e-12 {
            return None;
        }
        let s = inv[8];
        Some(Homography {
            h: inv.map(|v| v / s),
        })
    }
}

/// Bilinear interpolation of `gray` at (x, y), pixel (i, j) standing at (i, j): the four
/// pixels around the point, each weighted by its nearness along x, then along y.
/// Outside the picture, the value at the nearest point of its edge.
pub fn bilinear(gray: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = gray.dimensions();
    let x = x.clamp(0.0, (w - 1) as f32);
    let y = y.clamp(0.0, (h - 1) as f32);
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |x, y| gray.get_pixel(x, y)[0] as f32;
    let top = p(x0, y0) + (p(x1, y0) - p(x0, y0)) * fx;
    let bottom = p(x0, y1) + (p(x1, y1) - p(x0, y1)) * fx;
    top + (bottom - top) * fy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_of_a_skewed_quad_reach_its_outermost_corners() {
        let p = |x, y| Point { x, y };
        let quad = [p(10.0, 5.0), p(50.5, 8.0), p(47.0, 40.25), p(7.0, 38.0)];
        assert_eq!(Point::bounds(&quad), (p(7.0, 5.0), p(50.5, 40.25)));
        let (lo, hi) = Point::bounds(&[p(3.0, f32::NAN), p(1.0, 2.0)]);
        assert_eq!((lo, hi), (p(1.0, 2.0), p(3.0, 2.0)), "NaN is passed over");
    }

    fn close(p: Point, x: f32, y: f32) -> bool {
        (p.x - x).abs() < 1e-3 && (p.y - y).abs() < 1e-3
    }

    #[test]
    fn maps_the_corners_and_back() {
        let corners = [
            Point { x: 100.0, y: 50.0 },
            Point { x: 520.0, y: 80.0 },
            Point { x: 560.0, y: 470.0 },
            Point { x: 70.0, y: 430.0 },
        ];
        let h = Homography::grid_to_quad(corners).unwrap();
        assert!(close(h.apply(0.0, 0.0), 100.0, 50.0));
        assert!(close(h.apply(9.0, 0.0), 520.0, 80.0));
        assert!(close(h.apply(9.0, 9.0), 560.0, 470.0));
        assert!(close(h.apply(0.0, 9.0), 70.0, 430.0));
        let back = h.inverse().unwrap();
        let p = h.apply(4.5, 2.25);
        assert!(close(back.apply(p.x, p.y), 4.5, 2.25));
    }

    #[test]
    fn bilinear_weighs_the_four_pixels_around_and_holds_the_edge_outside() {
        // 0 100
        // 200 40
        let gray = GrayImage::from_raw(2, 2, vec![0, 100, 200, 40]).unwrap();
        assert_eq!(bilinear(&gray, 1.0, 0.0), 100.0, "on a pixel, its value");
        assert_eq!(bilinear(&gray, 0.5, 0.0), 50.0);
        assert_eq!(bilinear(&gray, 0.0, 0.25), 50.0);
        assert_eq!(bilinear(&gray, 0.5, 0.5), 85.0, "the mean of all four");
        assert_eq!(
            bilinear(&gray, 3.0, -2.0),
            100.0,
            "past the top right: that corner"
        );
        assert_eq!(bilinear(&gray, 0.5, 9.0), 120.0, "below: the bottom row");
    }

    #[test]
    fn collinear_points_have_no_transform() {
        let line = [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)];
        assert!(
            Homography::from_points(line, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
                .is_none()
        );
    }
}
