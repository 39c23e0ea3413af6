//! What KWin told the bot about its windows, as the connection's state keeps it (the
//! requests and events are in `windows`).

use std::collections::HashMap;

use wayland_protocols_plasma::plasma_window_management::client::org_kde_plasma_window::OrgKdePlasmaWindow;

use crate::window::{ScreenRect, WindowInfo};

/// One window as KWin describes it.
#[derive(Debug, Clone)]
pub struct PlasmaWindow {
    pub uuid: String,
    pub title: String,
    pub app_id: String,
    pub pid: Option<u32>,
    /// Its frame (decorations included; GTK's own decorations are the window's).
    pub rect: ScreenRect,
    pub active: bool,
    pub minimized: bool,
    /// A window that has a parent (a dialog).
    pub child: bool,
    pub unmapped: bool,
}

impl Default for PlasmaWindow {
    fn default() -> Self {
        PlasmaWindow {
            uuid: String::new(),
            title: String::new(),
            app_id: String::new(),
            pid: None,
            rect: ScreenRect {
                x: 0,
                y: 0,
                width: 0,
                height: 0,
            },
            active: false,
            minimized: false,
            child: false,
            unmapped: false,
        }
    }
}

impl PlasmaWindow {
    /// As the rest of the bot names windows; `id` is the rank in the list.
    pub fn info(&self, id: u32) -> WindowInfo {
        WindowInfo {
            id,
            title: self.title.clone(),
            app_name: self.app_id.clone(),
            pid: self.pid,
            rect: self.rect,
            minimized: self.minimized,
            dialog: self.child,
        }
    }
}

/// What KWin told about its windows.
#[derive(Default)]
pub struct Plasma {
    pub(super) windows: HashMap<String, (OrgKdePlasmaWindow, PlasmaWindow)>,
    /// Bottom to top.
    pub(super) stacking: Vec<String>,
}
