//! sudoku-bot: reads a sudoku off the screen or a picture, solves it, and plays or draws
//! the answer.
//!
//! The pipeline, pure work in the middle and the outside world at the edges:
//! capture ([`screen`]) -> locate grid, cells, digits ([`vision`]) -> [`solver`] ->
//! plan moves and act ([`input`], [`bot`]) -> verify. Each command-line mode is one
//! function in [`modes`].

pub mod backend;
pub mod bot;
pub mod config;
pub mod dataset;
pub mod error;
pub mod font;
pub mod grid;
pub mod input;
pub mod modes;
pub mod overlay;
pub mod screen;
pub mod solver;
pub mod stderr_capture;
pub mod vision;
pub mod wayland;
pub mod window;

pub use error::{Failure, UsageError};
pub use grid::Grid;
