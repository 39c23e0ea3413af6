//! Shared helpers of the bot's tests: a simulated game ([`sim`]) and a virtual desktop
//! with real games ([`desktop`]).
#![allow(dead_code)]

pub mod desktop;
pub mod recorder;
pub mod sim;
