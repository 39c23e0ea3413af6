//! The `gnome-wayland` backend: the game on a GNOME Wayland desktop, seen through
//! Mutter's ScreenCast (a PipeWire stream) and played through Mutter's RemoteDesktop
//! (synthetic pointer and keysyms), behind the same [`Screen`] and [`Input`] traits as
//! X11.
//!
//! What Wayland lets another client know, and so what the safety checks can use:
//! - the window: with org.gnome.Shell.Introspect (a full GNOME Shell that lets the bot
//!   ask), the window is found by title like on X11 and its keyboard focus is known.
//!   The list has no positions: the monitor is recorded, and the window placed on it
//!   with the pointer ([`place_window`]). Without it (Mutter alone, or a Shell that
//!   refuses, as GNOME Shell 41 and later do outside unsafe mode), the bot records the
//!   primary monitor and finds the grid in it; the "window" is then the monitor.
//! - nothing about other windows: what covers the grid is only found in the picture
//!   itself (the reader refuses a grid it cannot see), so [`WindowView::above`] is empty;
//! - the pointer: the stream's cursor metadata, so a hand on the mouse is seen (the
//!   pointer is not where the bot left it, or moved to where the bot never put it);
//! - not the keyboard: no key state and no other client's key presses, so
//!   [`Input::keys_held`] is always false and keys are not part of
//!   [`Input::user_activity`];
//! - the lock screen: GNOME's org.gnome.ScreenSaver, when the session has it.

mod client;
mod input;
pub mod kwin;
mod picture;
mod remote_desktop;
mod stream;
pub mod wlroots;

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::time::{Duration, Instant};

use image::RgbaImage;
use tracing::{debug, info};
use zbus::blocking::Connection;
use zbus::zvariant::OwnedValue;

use crate::input::{Input, InputError, Key, ScreenPoint};
use crate::screen::{self, Screen, ScreenError, ScreenRect, WindowInfo, WindowView};

pub use input::GnomeInput;
pub use picture::GnomeScreen;
pub use remote_desktop::{MutterSession, Target};
pub use stream::Frames;

/// How long to wait for the first frame of a new stream.
const FIRST_FRAME: Duration = Duration::from_secs(5);

fn screen_error(reason: impl Into<String>) -> ScreenError {
    ScreenError::Wayland(reason.into())
}

/// The session bus, with a sentence for the user when there is none.
pub fn session_bus() -> Result<Connection, ScreenError> {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none()
        && std::env::var_os("XDG_RUNTIME_DIR").is_none()
    {
        return Err(screen_error(
            "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set): run the bot inside the desktop session",
        ));
    }
    Connection::session().map_err(|e| screen_error(format!("cannot reach the session bus: {e}")))
}

/// Whether the screen saver `name` (its object at `path`, same interface name) says
/// the screen is locked; `true` when it cannot tell, so that the bot does not type.
pub fn screen_saver_active(bus: &Connection, name: &str, path: &str) -> bool {
    bus.call_method(Some(name), path, Some(name), "GetActive", &())
        .and_then(|reply| reply.body().deserialize::<bool>())
        .unwrap_or(true)
}

/// True when `name` has an owner on the bus.
pub fn has_owner(bus: &Connection, name: &str) -> bool {
    let Ok(dbus) = zbus::blocking::fdo::DBusProxy::new(bus) else {
        return false;
    };
    zbus::names::BusName::try_from(name)
        .ok()
        .and_then(|n| dbus.name_has_owner(n).ok())
        .unwrap_or(false)
}

/// True when the Wayland display (`WAYLAND_DISPLAY`) offers every global of `names`.
pub fn offers(names: &[&str]) -> bool {
    client::Client::connect().is_ok_and(|c| names.iter().all(|n| c.has(n)))
}

/// GNOME Shell's window list (sizes, no places), `None` when it has none or refuses.
pub fn list_windows() -> Result<Option<Vec<WindowInfo>>, ScreenError> {
    let bus = session_bus()?;
    Ok(shell_windows(&bus).map(|list| list.into_iter().map(|w| w.info).collect()))
}

/// One window from org.gnome.Shell.Introspect.
#[derive(Debug, Clone)]
struct ShellWindow {
    id: u64,
    info: WindowInfo,
    has_focus: bool,
}

/// org.gnome.Shell.Introspect's window list, `None` when the session has none or
/// refuses to tell. GNOME Shell 41 and later answer only the portals on their allowlist
/// (AccessDenied "GetWindows is not allowed" to anyone else) unless the Shell runs in
/// unsafe mode, so on a desktop as shipped the bot most likely gets `None` and plays the
/// whole primary monitor. Each window has its title, WM_CLASS, app id, focus, hidden
/// state and frame size (no position).
fn shell_windows(bus: &Connection) -> Option<Vec<ShellWindow>> {
    const NAME: &str = "org.gnome.Shell.Introspect";
    if !has_owner(bus, "org.gnome.Shell") {
        return None;
    }
    let reply = bus
        .call_method(
            Some("org.gnome.Shell"),
            "/org/gnome/Shell/Introspect",
            Some(NAME),
            "GetWindows",
            &(),
        )
        .ok()?;
    let windows: HashMap<u64, HashMap<String, OwnedValue>> = reply.body().deserialize().ok()?;
    let text = |props: &HashMap<String, OwnedValue>, key: &str| -> String {
        props
            .get(key)
            .and_then(|v| String::try_from(v.clone()).ok())
            .unwrap_or_default()
    };
    let number = |props: &HashMap<String, OwnedValue>, key: &str| -> u32 {
        props
            .get(key)
            .and_then(|v| u32::try_from(v.clone()).ok())
            .unwrap_or(0)
    };
    let flag = |props: &HashMap<String, OwnedValue>, key: &str| -> bool {
        props
            .get(key)
            .and_then(|v| bool::try_from(v.clone()).ok())
            .unwrap_or(false)
    };
    Some(
        windows
            .into_iter()
            .map(|(id, props)| ShellWindow {
                id,
                has_focus: flag(&props, "has-focus"),
                info: WindowInfo {
                    id: id as u32,
                    title: text(&props, "title"),
                    app_name: {
                        let class = text(&props, "wm-class");
                        if class.is_empty() {
                            text(&props, "app-id")
                        } else {
                            class
                        }
                    },
                    pid: None,
                    // The list gives the frame's size and no position.
                    rect: ScreenRect {
                        x: 0,
                        y: 0,
                        width: number(&props, "width"),
                        height: number(&props, "height"),
                    },
                    minimized: flag(&props, "is-hidden"),
                    dialog: false,
                },
            })
            .collect(),
    )
}

/// How long a window that matches nothing is looked for again (it may be opening).
const PATIENCE: Duration = Duration::from_millis(1500);

/// The game's window in GNOME Shell's window list; `Ok(None)` when the session has no
/// list to offer.
fn find_shell_window(bus: &Connection, wanted: &str) -> Result<Option<ShellWindow>, ScreenError> {
    let start = Instant::now();
    loop {
        let Some(list) = shell_windows(bus) else {
            return Ok(None);
        };
        let infos: Vec<WindowInfo> = list.iter().map(|w| w.info.clone()).collect();
        match screen::choose_window(&infos, wanted) {
            Ok((info, kind)) => {
                info!("{} matches \"{wanted}\" by {kind}", unplaced(info));
                return Ok(list.into_iter().find(|w| w.info.id == info.id));
            }
            Err(ScreenError::NoMatch { .. }) if start.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(100));
            }
            // The list has sizes but no positions: windows are named without them.
            Err(ScreenError::NoMatch { wanted, .. }) => {
                return Err(ScreenError::NoMatch {
                    wanted,
                    candidates: infos
                        .iter()
                        .filter(|w| !w.title.is_empty())
                        .map(unplaced)
                        .collect(),
                })
            }
            Err(ScreenError::Ambiguous { wanted, .. }) => {
                let lower = wanted.to_lowercase();
                return Err(ScreenError::Ambiguous {
                    candidates: infos
                        .iter()
                        .filter(|w| {
                            w.title == wanted
                                || w.app_name.to_lowercase() == lower
                                || w.title.to_lowercase().contains(&lower)
                        })
                        .map(unplaced)
                        .collect(),
                    wanted,
                });
            }
            Err(e) => return Err(e),
        }
    }
}

/// `"Sudoku" (gnome-sudoku, 730x677)`: a window of GNOME Shell's list, which says
/// nothing of where it is (its app name is never empty: the Shell gives every window an
/// app id).
fn unplaced(w: &WindowInfo) -> String {
    format!(
        "\"{}\" ({}, {}x{})",
        w.title, w.app_name, w.rect.width, w.rect.height
    )
}

/// The part of a window's own stream that shows the window. Mutter 43 sends a window
/// stream at the size of the whole screen, the window (with its shadow) in its top
/// left corner and black elsewhere: the box around the pixels that are not black.
fn window_box(picture: &RgbaImage) -> ScreenRect {
    let (mut x1, mut y1) = (0u32, 0u32);
    let (mut x0, mut y0) = (picture.width(), picture.height());
    for (x, y, p) in picture.enumerate_pixels() {
        if p.0[..3] != [0, 0, 0] {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
        }
    }
    if x1 <= x0 || y1 <= y0 {
        // Nothing drawn yet: the whole stream.
        return ScreenRect {
            x: 0,
            y: 0,
            width: picture.width(),
            height: picture.height(),
        };
    }
    ScreenRect {
        x: x0 as i32,
        y: y0 as i32,
        width: x1 - x0,
        height: y1 - y0,
    }
}

/// How long the monitor stream gets to report the pointer placed in the window.
const PLACE_PATIENCE: Duration = Duration::from_millis(1000);

/// Where the window (`shown`, in its own stream's pixels) is on the monitor stream,
/// clipped to the monitor. GNOME Shell's window list has no positions, but Mutter puts
/// a pointer sent to a point of the window's stream at that point of the window, and
/// the monitor stream then reports where the pointer is: the difference is the window
/// stream's origin on the monitor. A report can be stale (the first one may tell where
/// the pointer rested before), so the pointer goes to two points in turn until two
/// reports in a row are as far apart as the two points. `None` when that never happens
/// (the window is on another monitor).
fn place_window(
    session: &MutterSession,
    frames: &Frames,
    shown: &ScreenRect,
    monitor: &ScreenRect,
) -> Result<Option<ScreenRect>, ScreenError> {
    let centre = (
        shown.x + shown.width as i32 / 2,
        shown.y + shown.height as i32 / 2,
    );
    let points = [centre, (centre.0 + 7, centre.1 + 5)];
    // The previous point and what the monitor stream reported after it.
    let mut previous: Option<((i32, i32), (i32, i32))> = None;
    for step in 0..6 {
        let (x, y) = points[step % 2];
        let before = frames.pointer();
        session
            .pointer_to_window(x as f64, y as f64)
            .map_err(|e| screen_error(e.to_string()))?;
        let start = Instant::now();
        let report = loop {
            match frames.pointer() {
                Some(now) if Some(now) != before => break Some(now),
                _ if start.elapsed() >= PLACE_PATIENCE => break None,
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        let Some((px, py)) = report else {
            return Ok(None);
        };
        if let Some(((qx, qy), (rx, ry))) = previous {
            if (px - rx, py - ry) == (x - qx, y - qy) {
                let (left, top) = (shown.x + px - x, shown.y + py - y);
                let (x0, y0) = (left.max(0), top.max(0));
                let x1 = (left + shown.width as i32).min(monitor.width as i32);
                let y1 = (top + shown.height as i32).min(monitor.height as i32);
                return Ok((x1 > x0 && y1 > y0).then(|| ScreenRect {
                    x: x0,
                    y: y0,
                    width: (x1 - x0) as u32,
                    height: (y1 - y0) as u32,
                }));
            }
        }
        previous = Some(((x, y), (px, py)));
    }
    Ok(None)
}

/// What the bot plays on a GNOME Wayland desktop.
pub struct Opened {
    pub screen: GnomeScreen,
    /// `None` for a dry run: no RemoteDesktop session is even created.
    pub input: Option<GnomeInput>,
    /// How the window was found, for the log.
    pub found: String,
    pub title: String,
}

/// Finds the game (by title through org.gnome.Shell.Introspect, else the primary
/// monitor), starts Mutter's sessions and the PipeWire stream, and waits for a frame.
pub fn open(wanted: &str, dry_run: bool) -> Result<Opened, ScreenError> {
    let bus = session_bus()?;
    for name in [
        "org.gnome.Mutter.ScreenCast",
        "org.gnome.Mutter.RemoteDesktop",
    ] {
        if !has_owner(&bus, name) {
            return Err(screen_error(format!(
                "{name} is not on the session bus: the gnome-wayland backend needs GNOME's compositor, Mutter"
            )));
        }
    }
    let (target, window) = match find_shell_window(&bus, wanted)? {
        // A dry run has no pointer to place the window with: its own stream then.
        Some(shell) if dry_run => (Target::Window(shell.id), Some(shell)),
        Some(shell) => (Target::WindowOnMonitor(shell.id), Some(shell)),
        None => {
            info!(
                "no window list in this session (org.gnome.Shell.Introspect is missing or refuses): looking for the grid on the whole primary monitor"
            );
            (Target::PrimaryMonitor, None)
        }
    };
    let session = MutterSession::start(&bus, &target, !dry_run)?;
    let frames = Frames::connect(session.node_id).map_err(screen_error)?;
    let first = frames.latest(FIRST_FRAME).map_err(screen_error)?;
    let monitor = ScreenRect {
        x: 0,
        y: 0,
        width: first.width(),
        height: first.height(),
    };
    let (info, placed, found) = match &window {
        None => (
            WindowInfo {
                id: 0,
                title: "primary monitor".into(),
                app_name: "Mutter".into(),
                pid: None,
                rect: monitor,
                minimized: false,
                dialog: false,
            },
            false,
            format!("the primary monitor (no window list to find \"{wanted}\" by title)"),
        ),
        Some(shell) => locate_window(shell, &session, &frames, &first, &monitor, dry_run)?,
    };
    let title = window
        .as_ref()
        .map_or_else(|| wanted.to_string(), |w| w.info.title.clone());
    if !dry_run {
        session
            .warm_up_keyboard()
            .map_err(|e| screen_error(e.to_string()))?;
    }
    let session = Rc::new(session);
    let frames = Rc::new(frames);
    let input = (!dry_run).then(|| GnomeInput::new(session.clone(), frames.clone()));
    let screen = GnomeScreen {
        bus: bus.clone(),
        frames,
        _session: session,
        info,
        placed,
        shell_id: window.map(|w| w.id),
        saver: has_owner(&bus, "org.gnome.ScreenSaver"),
    };
    Ok(Opened {
        screen,
        input,
        found,
        title,
    })
}

/// Where the window the Shell listed lies in the stream's pictures: placed on the
/// monitor by the pointer (its own stream read once, for where it shows the window),
/// or, in a dry run, in its own stream's `first` picture. Off the primary monitor,
/// the whole monitor is read. The window's info with that place, whether it was
/// placed, and how it was found, for the log.
fn locate_window(
    shell: &ShellWindow,
    session: &MutterSession,
    frames: &Frames,
    first: &RgbaImage,
    monitor: &ScreenRect,
    dry_run: bool,
) -> Result<(WindowInfo, bool, String), ScreenError> {
    let mut info = shell.info.clone();
    let placed = match session.window_node {
        Some(node) => {
            let own = Frames::connect(node).map_err(screen_error)?;
            let shown = window_box(&own.latest(FIRST_FRAME).map_err(screen_error)?);
            drop(own);
            place_window(session, frames, &shown, monitor)?
        }
        None => Some(window_box(first)),
    };
    let how = match placed {
        Some(rect) => {
            info.rect = rect;
            if dry_run {
                "found in GNOME Shell's window list; a dry run records the window alone, so positions are in the window's own picture"
            } else {
                "found in GNOME Shell's window list, placed on the monitor by the pointer"
            }
        }
        None => {
            info.rect = *monitor;
            "found in GNOME Shell's window list but not on the primary monitor: looking for the grid on the whole primary monitor"
        }
    };
    let found = format!("window {} ({how})", info.describe());
    Ok((info, placed.is_some(), found))
}
