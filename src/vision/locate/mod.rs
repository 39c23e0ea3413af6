//! Locating the grid in a screenshot: where its 81 cells lie.
//!
//! [`screen_grid`] tries the ways in turn, cheapest and most exact first: flat-colour
//! [`regions`] linked into the 9x9 [`lattice`] of cells (told from graph paper, a
//! checkerboard or a number pad by [`lattice_checks`]); the grid as nine 3x3 [`boxes`]
//! when thin, dashed or faint lines do not part the cells; a terminal's broken lines made
//! whole ([`dashes`]); a grid drawn with box borders only ([`unlined_boxes`]). The
//! near-square regions every way starts from are the [`candidates`].

pub mod boxes;
pub mod candidates;
pub mod dashes;
pub mod lattice;
pub mod lattice_checks;
mod nearby;
pub mod regions;
pub mod screen_grid;
pub mod unlined_boxes;

#[cfg(test)]
pub(in crate::vision) mod tests;

pub use lattice::{locate_lattice, Lattice};
pub use screen_grid::locate_screen_grid;
