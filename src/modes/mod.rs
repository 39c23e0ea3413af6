//! One function a command-line mode, each readable top to bottom.

pub mod config;
pub mod eval;
pub mod overlay;
pub mod read;
pub mod solve;
pub mod watch;
pub mod windows;
