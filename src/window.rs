//! What the bot knows of a window: its place on the screen and who it belongs to. The
//! backends (X11 in `screen`, the Wayland compositors in `wayland`) describe their
//! windows this way, and the input devices aim at one.

/// A rectangle in screen pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenRect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

impl ScreenRect {
    pub fn intersects(&self, other: &ScreenRect) -> bool {
        self.x < other.x + other.width as i32
            && other.x < self.x + self.width as i32
            && self.y < other.y + other.height as i32
            && other.y < self.y + self.height as i32
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x
            && y >= self.y
            && x < self.x + self.width as i32
            && y < self.y + self.height as i32
    }
}

/// One top-level window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowInfo {
    /// The X11 window id.
    pub id: u32,
    pub title: String,
    /// The application name (the class part of WM_CLASS, e.g. "Gnome-sudoku").
    pub app_name: String,
    /// The owning process, when the window says (`_NET_WM_PID`).
    pub pid: Option<u32>,
    /// Client area, screen pixels.
    pub rect: ScreenRect,
    pub minimized: bool,
    /// A dialog or helper window: transient for another window, or typed as anything
    /// but a normal window. The main window of an app is preferred over these.
    pub dialog: bool,
}

impl WindowInfo {
    /// True when both windows belong to the same application (same process, or same
    /// application name when a process id is missing).
    pub fn same_app(&self, other: &WindowInfo) -> bool {
        match (self.pid, other.pid) {
            (Some(a), Some(b)) => a == b,
            _ => !self.app_name.is_empty() && self.app_name == other.app_name,
        }
    }

    /// `"Sudoku" (Gnome-sudoku, 740x686 at 270,169)`: how windows are named in messages.
    pub fn describe(&self) -> String {
        format!(
            "\"{}\" ({}, {}x{} at {},{}{})",
            self.title,
            if self.app_name.is_empty() {
                "no app name"
            } else {
                &self.app_name
            },
            self.rect.width,
            self.rect.height,
            self.rect.x,
            self.rect.y,
            if self.dialog { ", dialog" } else { "" }
        )
    }
}
