//! The `kwin` backend: KDE Plasma's compositor. (Being written.)

use crate::input::NoInput;
use crate::screen::{ScreenError, WindowInfo};

pub struct Opened {
    pub screen: crate::wayland::wlroots::WlrScreen,
    pub input: Option<NoInput>,
    pub found: String,
    pub title: String,
}

pub fn open(_wanted: &str, _dry_run: bool) -> Result<Opened, ScreenError> {
    Err(ScreenError::Wayland(
        "the kwin backend is not written yet".into(),
    ))
}

pub fn list_windows() -> Result<Vec<WindowInfo>, ScreenError> {
    Err(ScreenError::Wayland(
        "the kwin backend is not written yet".into(),
    ))
}
