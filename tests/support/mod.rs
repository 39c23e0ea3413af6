//! Shared helpers of the bot's tests: a simulated game ([`sim`]) and a virtual desktop
//! with real games ([`desktop`]), and a headless GNOME Wayland one ([`wayland`]).
#![allow(dead_code)]

pub mod desktop;
pub mod recorder;
pub mod sim;
pub mod wayland;
