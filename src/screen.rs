//! The game window on the screen: finding it among the desktop's windows (xcap), capturing
//! it, and checking that it is still where it was and that nothing covers the grid.
//!
//! xcap lists and captures windows; its positions are the client area's, in root-window
//! (screen) pixels, which is also what synthetic input uses. The per-batch safety checks
//! need a handful of window properties many times a second, so they go through one
//! persistent X11 connection (x11rb) instead: xcap opens a new connection per property.

use image::RgbaImage;
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::xproto::{
    Atom, AtomEnum, ConnectionExt, ImageFormat, MapState, Window, WindowClass,
};
use x11rb::rust_connection::RustConnection;

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

/// What went wrong with the screen or a window.
#[derive(Debug, thiserror::Error)]
pub enum ScreenError {
    #[error("cannot reach the display ({0}): sudoku-bot needs an X11 session (is DISPLAY set?)")]
    NoDisplay(String),
    #[error("X11 request failed: {0}")]
    X11(String),
    /// The connection to the X server broke: the server (or the session) ended.
    #[error("lost the connection to the X server (did the session end?): {0}")]
    DisplayGone(String),
    #[error("cannot list windows: {0}")]
    List(String),
    #[error("cannot capture window {window}: {reason}")]
    Capture { window: String, reason: String },
    /// The gnome-wayland backend (Mutter's D-Bus interfaces, PipeWire) failed.
    #[error("GNOME Wayland: {0}")]
    Wayland(String),
    #[error("window {0} was closed")]
    Gone(String),
    #[error("no window matches \"{wanted}\"; windows open: {}", list_or_none(.candidates))]
    NoMatch {
        wanted: String,
        candidates: Vec<String>,
    },
    #[error("{} windows match \"{wanted}\" equally well: {}; give the exact title", .candidates.len(), .candidates.join(", "))]
    Ambiguous {
        wanted: String,
        candidates: Vec<String>,
    },
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        // xcap lists only the windows a window manager manages.
        "none (is a window manager running?)".to_string()
    } else {
        names.join(", ")
    }
}

impl From<x11rb::errors::ConnectionError> for ScreenError {
    fn from(e: x11rb::errors::ConnectionError) -> Self {
        match e {
            x11rb::errors::ConnectionError::IoError(_) => ScreenError::DisplayGone(e.to_string()),
            _ => ScreenError::X11(e.to_string()),
        }
    }
}

impl From<x11rb::errors::ReplyError> for ScreenError {
    fn from(e: x11rb::errors::ReplyError) -> Self {
        match e {
            x11rb::errors::ReplyError::ConnectionError(c) => c.into(),
            _ => ScreenError::X11(e.to_string()),
        }
    }
}

/// How a window was matched to the name the user gave, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchKind {
    ExactTitle,
    AppName,
    Substring,
}

impl std::fmt::Display for MatchKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MatchKind::ExactTitle => "exact title",
            MatchKind::AppName => "application name",
            MatchKind::Substring => "part of the title",
        })
    }
}

/// A test of one window against the wanted name.
type Matcher<'a> = dyn Fn(&WindowInfo) -> bool + 'a;

/// Picks the window the user means by `wanted`: the exact title first, then the
/// application name (case-insensitive), then a case-insensitive substring of the title.
/// Within the first kind that matches anything, main windows win over dialogs of the
/// same app; if more than one window is left, that is an error listing them.
pub fn choose_window<'a>(
    windows: &'a [WindowInfo],
    wanted: &str,
) -> Result<(&'a WindowInfo, MatchKind), ScreenError> {
    let lower = wanted.to_lowercase();
    let usable: Vec<&WindowInfo> = windows
        .iter()
        .filter(|w| w.rect.width > 1 && w.rect.height > 1)
        .collect();
    let kinds: [(MatchKind, &Matcher); 3] = [
        (MatchKind::ExactTitle, &|w| w.title == wanted),
        (MatchKind::AppName, &|w| {
            !w.app_name.is_empty() && w.app_name.to_lowercase() == lower
        }),
        (MatchKind::Substring, &|w| {
            !lower.is_empty() && w.title.to_lowercase().contains(&lower)
        }),
    ];
    for (kind, matches) in kinds {
        let found: Vec<&WindowInfo> = usable.iter().copied().filter(|w| matches(w)).collect();
        if found.is_empty() {
            continue;
        }
        let main: Vec<&WindowInfo> = found.iter().copied().filter(|w| !w.dialog).collect();
        let pick = if main.is_empty() { found } else { main };
        if pick.len() == 1 {
            return Ok((pick[0], kind));
        }
        return Err(ScreenError::Ambiguous {
            wanted: wanted.to_string(),
            candidates: pick.iter().map(|w| w.describe()).collect(),
        });
    }
    Err(ScreenError::NoMatch {
        wanted: wanted.to_string(),
        candidates: usable
            .iter()
            .filter(|w| !w.title.is_empty())
            .map(|w| w.describe())
            .collect(),
    })
}

/// Every top-level window xcap can capture, topmost first.
pub fn list_windows() -> Result<Vec<WindowInfo>, ScreenError> {
    let x11 = X11::connect()?;
    let windows = xcap::Window::all().map_err(|e| ScreenError::List(e.to_string()))?;
    let mut out = Vec::with_capacity(windows.len());
    for w in windows {
        // A window can vanish while we ask about it; skip it then.
        let (Ok(id), Ok(x), Ok(y), Ok(width), Ok(height)) =
            (w.id(), w.x(), w.y(), w.width(), w.height())
        else {
            continue;
        };
        out.push(WindowInfo {
            id,
            // _NET_WM_NAME, else the old-style WM_NAME (xterm sets only that).
            title: x11
                .title(id)
                .ok()
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| w.title().unwrap_or_default()),
            app_name: w.app_name().unwrap_or_default(),
            pid: w.pid().ok(),
            rect: ScreenRect {
                x,
                y,
                width,
                height,
            },
            minimized: w.is_minimized().unwrap_or(false),
            dialog: x11.is_dialog(id).unwrap_or(false),
        });
    }
    Ok(out)
}

/// The chosen window as the bot sees it at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowView {
    pub window: WindowInfo,
    /// False when the window is not on the screen although it exists: unmapped, on
    /// another workspace, or one of its ancestors unmapped.
    pub viewable: bool,
    /// Every visible window stacked above it, topmost first, with `rect` its whole
    /// frame (title bar and borders included). On X11 that is every mapped window the
    /// server stacks above the game's frame: managed windows and override-redirect ones
    /// (menus, tooltips, notification bubbles, screen lockers) alike.
    pub above: Vec<WindowInfo>,
}

impl WindowView {
    /// The windows above that overlap `area` (screen pixels).
    pub fn covering(&self, area: &ScreenRect) -> Vec<&WindowInfo> {
        self.above
            .iter()
            .filter(|w| w.rect.intersects(area))
            .collect()
    }

    /// Why a click at `at` would not reach the game, else `None`: the window is not
    /// viewable, the point lies outside its client area, or another window covers it.
    pub fn blocked_at(&self, at: crate::input::ScreenPoint) -> Option<String> {
        if !self.viewable {
            return Some(
                "the game window is not on the screen (unmapped or on another workspace)".into(),
            );
        }
        if self.window.minimized {
            return Some("the game window is minimised".into());
        }
        if !self.window.rect.contains(at.x, at.y) {
            return Some(format!(
                "{at} lies outside the game window ({}x{} at {},{})",
                self.window.rect.width,
                self.window.rect.height,
                self.window.rect.x,
                self.window.rect.y
            ));
        }
        self.above
            .iter()
            .find(|w| w.rect.contains(at.x, at.y))
            .map(|w| format!("{} covers {at}", w.describe()))
    }
}

/// The window the bot plays, behind a trait so tests can replay recorded screenshots.
pub trait Screen {
    /// Where the window is now, and what is stacked above it. [`ScreenError::Gone`]
    /// when it was closed.
    fn view(&mut self) -> Result<WindowView, ScreenError>;
    /// A picture of the window's client area.
    fn capture(&mut self) -> Result<RgbaImage, ScreenError>;
    /// A picture of what the screen shows in `area` (screen pixels, clipped to the
    /// screen): a message window of the game's, for its words.
    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError>;
    /// `None` when the game window (or a window inside it) has the keyboard focus, so
    /// that keys go to the game; else which window has it, in a few words.
    fn focus_elsewhere(&mut self) -> Result<Option<String>, ScreenError>;
    /// Why no input may be sent now because the screen is locked or blanked, else
    /// `None`.
    fn locked(&mut self) -> Result<Option<String>, ScreenError>;
    /// Whether a capture may show the screen as it was a frame or more ago (a
    /// compositor's stream), so that the time an input took to show says nothing about
    /// the game. The bot then does not learn the game from its first moves.
    fn captures_lag(&self) -> bool {
        false
    }
}

/// A boxed screen is a screen: the backend is chosen at run time.
impl<T: Screen + ?Sized> Screen for Box<T> {
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        (**self).view()
    }
    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        (**self).capture()
    }
    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        (**self).capture_area(area)
    }
    fn focus_elsewhere(&mut self) -> Result<Option<String>, ScreenError> {
        (**self).focus_elsewhere()
    }
    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        (**self).locked()
    }
    fn captures_lag(&self) -> bool {
        (**self).captures_lag()
    }
}

/// The real screen: one X11 window, captured with xcap.
pub struct X11Screen {
    x11: X11,
    window: xcap::Window,
    info: WindowInfo,
    /// GNOME's screen saver over D-Bus, when the session has one.
    gnome_saver: Option<GnomeScreenSaver>,
}

impl X11Screen {
    /// Opens the window found by [`choose_window`].
    pub fn open(info: &WindowInfo) -> Result<X11Screen, ScreenError> {
        let x11 = X11::connect()?;
        let window = xcap::Window::all()
            .map_err(|e| ScreenError::List(e.to_string()))?
            .into_iter()
            .find(|w| w.id().ok() == Some(info.id))
            .ok_or_else(|| ScreenError::Gone(info.describe()))?;
        Ok(X11Screen {
            x11,
            window,
            info: info.clone(),
            gnome_saver: GnomeScreenSaver::connect(),
        })
    }
}

impl X11Screen {
    /// Whether part of the window lies beyond the edges of the screen.
    fn off_screen(&self) -> Result<bool, ScreenError> {
        let root = self.x11.conn.get_geometry(self.x11.root)?.reply()?;
        let r = self.x11.client_rect(self.info.id).unwrap_or(self.info.rect);
        Ok(r.x < 0
            || r.y < 0
            || i64::from(r.x) + i64::from(r.width) > i64::from(root.width)
            || i64::from(r.y) + i64::from(r.height) > i64::from(root.height))
    }
}

impl Screen for X11Screen {
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        let id = self.info.id;
        let gone = || ScreenError::Gone(self.info.describe());
        // A request about the window fails with an X error once the window is
        // destroyed; a broken connection is the server's end, not the window's.
        let or_gone = |e: ScreenError| match e {
            e @ ScreenError::DisplayGone(_) => e,
            _ => gone(),
        };
        let attributes = self
            .x11
            .conn
            .get_window_attributes(id)?
            .reply()
            .map_err(|e| or_gone(e.into()))?;
        let mut window = self.info.clone();
        window.rect = self.x11.client_rect(id).map_err(or_gone)?;
        window.minimized = self.x11.is_hidden(id).map_err(or_gone)?;
        // The window's top-level ancestor (the window manager's frame) is what the
        // server stacks among the root's children, bottom to top.
        let frame = self.x11.top_level(id).map_err(or_gone)?;
        let children = self.x11.conn.query_tree(self.x11.root)?.reply()?.children;
        let pos = children.iter().position(|&w| w == frame).ok_or_else(gone)?;
        let above = self.x11.visible_windows(&children[pos + 1..])?;
        Ok(WindowView {
            window,
            viewable: attributes.map_state == MapState::VIEWABLE,
            above,
        })
    }

    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        match self.window.capture_image() {
            Ok(picture) => Ok(picture),
            Err(e) => Err(ScreenError::Capture {
                window: self.info.describe(),
                // X cannot read a window's pixels beyond the screen's edge.
                reason: if self.off_screen()? {
                    "it lies partly off the screen; move it onto the screen".into()
                } else {
                    e.to_string()
                },
            }),
        }
    }

    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let failed = |reason: String| ScreenError::Capture {
            window: format!(
                "the screen at {}x{}+{}+{}",
                area.width, area.height, area.x, area.y
            ),
            reason,
        };
        let root = self.x11.conn.get_geometry(self.x11.root)?.reply()?;
        let x0 = area.x.clamp(0, i32::from(root.width));
        let y0 = area.y.clamp(0, i32::from(root.height));
        let x1 = (area.x + area.width as i32).clamp(0, i32::from(root.width));
        let y1 = (area.y + area.height as i32).clamp(0, i32::from(root.height));
        let (w, h) = ((x1 - x0) as u16, (y1 - y0) as u16);
        if w == 0 || h == 0 {
            return Err(failed("the area is off the screen".into()));
        }
        let reply = self
            .x11
            .conn
            .get_image(
                ImageFormat::Z_PIXMAP,
                self.x11.root,
                x0 as i16,
                y0 as i16,
                w,
                h,
                !0,
            )?
            .reply()?;
        // 24-bit colour in 32-bit pixels, blue first: what Xvfb and X servers today use.
        let (w, h) = (u32::from(w), u32::from(h));
        if reply.data.len() as u64 != u64::from(w) * u64::from(h) * 4 {
            return Err(failed(format!(
                "unexpected pixel format (depth {}, {} bytes for {w}x{h})",
                reply.depth,
                reply.data.len()
            )));
        }
        let mut picture = RgbaImage::new(w, h);
        for (px, bgrx) in picture.pixels_mut().zip(reply.data.chunks_exact(4)) {
            *px = image::Rgba([bgrx[2], bgrx[1], bgrx[0], 255]);
        }
        Ok(picture)
    }

    fn focus_elsewhere(&mut self) -> Result<Option<String>, ScreenError> {
        let focus = self.x11.conn.get_input_focus()?.reply()?.focus;
        match focus {
            0 => return Ok(Some("no window has the keyboard focus".into())),
            // PointerRoot: keys go to whatever is under the pointer.
            1 => {
                return Ok(Some(
                    "no window has the keyboard focus (it follows the pointer)".into(),
                ))
            }
            _ => {}
        }
        if self.x11.is_inside(focus, self.info.id)? {
            return Ok(None);
        }
        let top = self.x11.top_level(focus).unwrap_or(focus);
        let client = self.x11.client_of(top).unwrap_or(top);
        Ok(Some(self.x11.window_info(client, None).describe()))
    }

    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        if self.x11.screen_saver_on()? {
            return Ok(Some(
                "the screen saver is on (the screen is blanked or locked)".into(),
            ));
        }
        if let Some(saver) = &self.gnome_saver {
            if saver.active() {
                return Ok(Some(
                    "the screen is locked (GNOME's screen shield is up)".into(),
                ));
            }
        }
        Ok(None)
    }
}

/// org.gnome.ScreenSaver on the session bus: GNOME Shell's lock screen. Its own windows
/// are not X11 windows the cover check could see, and under a compositor a capture
/// still shows the game behind it.
struct GnomeScreenSaver {
    bus: zbus::blocking::Connection,
}

impl GnomeScreenSaver {
    const NAME: &'static str = "org.gnome.ScreenSaver";

    /// The session bus, when there is one and GNOME's screen saver is on it.
    fn connect() -> Option<GnomeScreenSaver> {
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS")?;
        let bus = zbus::blocking::Connection::session().ok()?;
        let dbus = zbus::blocking::fdo::DBusProxy::new(&bus).ok()?;
        let name = zbus::names::BusName::try_from(Self::NAME).ok()?;
        dbus.name_has_owner(name)
            .ok()?
            .then_some(GnomeScreenSaver { bus })
    }

    /// True while the lock screen (or GNOME's blanking) is up. A failed call counts as
    /// active: when the bot cannot tell, it does not type.
    fn active(&self) -> bool {
        self.bus
            .call_method(
                Some(Self::NAME),
                "/org/gnome/ScreenSaver",
                Some(Self::NAME),
                "GetActive",
                &(),
            )
            .and_then(|reply| reply.body().deserialize::<bool>())
            .unwrap_or(true)
    }
}

/// One X11 connection with the atoms the window checks need.
struct X11 {
    conn: RustConnection,
    root: Window,
    atoms: Atoms,
}

struct Atoms {
    icccm_wm_state: Atom,
    wm_state: Atom,
    wm_state_hidden: Atom,
    wm_pid: Atom,
    wm_window_type: Atom,
    wm_window_type_normal: Atom,
    net_wm_name: Atom,
    utf8_string: Atom,
}

impl X11 {
    fn connect() -> Result<X11, ScreenError> {
        let (conn, screen) =
            x11rb::connect(None).map_err(|e| ScreenError::NoDisplay(e.to_string()))?;
        let root = conn.setup().roots[screen].root;
        let intern = |name: &[u8]| -> Result<Atom, ScreenError> {
            Ok(conn.intern_atom(false, name)?.reply()?.atom)
        };
        let atoms = Atoms {
            icccm_wm_state: intern(b"WM_STATE")?,
            wm_state: intern(b"_NET_WM_STATE")?,
            wm_state_hidden: intern(b"_NET_WM_STATE_HIDDEN")?,
            wm_pid: intern(b"_NET_WM_PID")?,
            wm_window_type: intern(b"_NET_WM_WINDOW_TYPE")?,
            wm_window_type_normal: intern(b"_NET_WM_WINDOW_TYPE_NORMAL")?,
            net_wm_name: intern(b"_NET_WM_NAME")?,
            utf8_string: intern(b"UTF8_STRING")?,
        };
        Ok(X11 { conn, root, atoms })
    }

    fn u32_property(&self, window: Window, property: Atom) -> Result<Vec<u32>, ScreenError> {
        let reply = self
            .conn
            .get_property(false, window, property, AtomEnum::ANY, 0, 4096)?
            .reply()?;
        Ok(reply.value32().map(|v| v.collect()).unwrap_or_default())
    }

    fn string_property(&self, window: Window, property: Atom) -> Result<Vec<u8>, ScreenError> {
        let reply = self
            .conn
            .get_property(false, window, property, AtomEnum::ANY, 0, 4096)?
            .reply()?;
        Ok(reply.value)
    }

    /// The child of the root that holds `window` (its frame under a reparenting
    /// window manager, else the window itself).
    fn top_level(&self, mut window: Window) -> Result<Window, ScreenError> {
        loop {
            let tree = self.conn.query_tree(window)?.reply()?;
            if tree.parent == self.root || tree.parent == x11rb::NONE {
                return Ok(window);
            }
            window = tree.parent;
        }
    }

    /// True when `window` is `ancestor` or lies inside it.
    fn is_inside(&self, mut window: Window, ancestor: Window) -> Result<bool, ScreenError> {
        while window != ancestor {
            let Ok(tree) = self.conn.query_tree(window)?.reply() else {
                return Ok(false);
            };
            if window == self.root || tree.parent == x11rb::NONE {
                return Ok(false);
            }
            window = tree.parent;
        }
        Ok(true)
    }

    /// The application window inside a frame: the first window, breadth first, with
    /// the ICCCM WM_STATE property.
    fn client_of(&self, frame: Window) -> Result<Window, ScreenError> {
        let mut queue = std::collections::VecDeque::from([frame]);
        while let Some(w) = queue.pop_front() {
            if !self.u32_property(w, self.atoms.icccm_wm_state)?.is_empty() {
                return Ok(w);
            }
            if let Ok(tree) = self.conn.query_tree(w)?.reply() {
                queue.extend(tree.children);
            }
        }
        Ok(frame)
    }

    /// Of `windows` (children of the root, bottom to top), the ones that show on the
    /// screen, topmost first, each with its whole frame as `rect`. The requests go out
    /// together and the replies are read after, so this costs about one round trip.
    fn visible_windows(&self, windows: &[Window]) -> Result<Vec<WindowInfo>, ScreenError> {
        let attributes: Vec<_> = windows
            .iter()
            .map(|&w| self.conn.get_window_attributes(w))
            .collect::<Result<_, _>>()?;
        let geometries: Vec<_> = windows
            .iter()
            .map(|&w| self.conn.get_geometry(w))
            .collect::<Result<_, _>>()?;
        let mut out = Vec::new();
        for ((&w, a), g) in windows.iter().zip(attributes).zip(geometries).rev() {
            // A window that vanished meanwhile covers nothing.
            let (Ok(a), Ok(g)) = (a.reply(), g.reply()) else {
                continue;
            };
            if a.map_state != MapState::VIEWABLE || a.class == WindowClass::INPUT_ONLY {
                continue;
            }
            let border = 2 * g.border_width as u32;
            let rect = ScreenRect {
                x: g.x as i32,
                y: g.y as i32,
                width: g.width as u32 + border,
                height: g.height as u32 + border,
            };
            if rect.width == 0 || rect.height == 0 {
                continue;
            }
            let client = if a.override_redirect {
                w
            } else {
                self.client_of(w).unwrap_or(w)
            };
            out.push(self.window_info(client, Some(rect)));
        }
        Ok(out)
    }

    /// What messages and the completion check need to know of a window: `rect` when
    /// known already, else its client area.
    fn window_info(&self, id: Window, rect: Option<ScreenRect>) -> WindowInfo {
        WindowInfo {
            id,
            title: self.title(id).unwrap_or_default(),
            app_name: self.app_name(id).unwrap_or_default(),
            pid: self.pid(id),
            rect: rect
                .or_else(|| self.client_rect(id).ok())
                .unwrap_or(ScreenRect {
                    x: 0,
                    y: 0,
                    width: 0,
                    height: 0,
                }),
            minimized: false,
            dialog: self.is_dialog(id).unwrap_or(false),
        }
    }

    /// True while the X screen saver has the screen (blanked, or a locker's window up).
    fn screen_saver_on(&self) -> Result<bool, ScreenError> {
        use x11rb::protocol::screensaver::{ConnectionExt as _, State};
        if self
            .conn
            .extension_information(x11rb::protocol::screensaver::X11_EXTENSION_NAME)?
            .is_none()
        {
            return Ok(false);
        }
        let info = self.conn.screensaver_query_info(self.root)?.reply()?;
        Ok(info.state == u8::from(State::ON))
    }

    /// The client area in screen pixels.
    fn client_rect(&self, window: Window) -> Result<ScreenRect, ScreenError> {
        let geometry = self.conn.get_geometry(window)?.reply()?;
        let origin = self
            .conn
            .translate_coordinates(window, self.root, 0, 0)?
            .reply()?;
        Ok(ScreenRect {
            x: origin.dst_x as i32,
            y: origin.dst_y as i32,
            width: geometry.width as u32,
            height: geometry.height as u32,
        })
    }

    fn is_hidden(&self, window: Window) -> Result<bool, ScreenError> {
        Ok(self
            .u32_property(window, self.atoms.wm_state)?
            .contains(&self.atoms.wm_state_hidden))
    }

    fn is_dialog(&self, window: Window) -> Result<bool, ScreenError> {
        let transient = !self
            .u32_property(window, AtomEnum::WM_TRANSIENT_FOR.into())?
            .is_empty();
        let types = self.u32_property(window, self.atoms.wm_window_type)?;
        let not_normal = !types.is_empty() && !types.contains(&self.atoms.wm_window_type_normal);
        Ok(transient || not_normal)
    }

    fn pid(&self, window: Window) -> Option<u32> {
        self.u32_property(window, self.atoms.wm_pid)
            .ok()?
            .first()
            .copied()
    }

    fn title(&self, window: Window) -> Result<String, ScreenError> {
        let reply = self
            .conn
            .get_property(
                false,
                window,
                self.atoms.net_wm_name,
                self.atoms.utf8_string,
                0,
                1024,
            )?
            .reply()?;
        if !reply.value.is_empty() {
            return Ok(String::from_utf8_lossy(&reply.value).into_owned());
        }
        let legacy = self.string_property(window, AtomEnum::WM_NAME.into())?;
        Ok(String::from_utf8_lossy(&legacy).into_owned())
    }

    fn app_name(&self, window: Window) -> Result<String, ScreenError> {
        let class = self.string_property(window, AtomEnum::WM_CLASS.into())?;
        Ok(class
            .split(|&b| b == 0)
            .nth(1)
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(id: u32, title: &str, app: &str, dialog: bool) -> WindowInfo {
        WindowInfo {
            id,
            title: title.into(),
            app_name: app.into(),
            pid: Some(id / 10),
            rect: ScreenRect {
                x: 0,
                y: 0,
                width: 400,
                height: 300,
            },
            minimized: false,
            dialog,
        }
    }

    #[test]
    fn exact_title_beats_app_name_and_substring() {
        let ws = vec![
            win(10, "Sudoku Help", "Yelp", false),
            win(20, "Sudoku", "Gnome-sudoku", false),
            win(30, "Web Sudoku - Chromium", "Chromium", false),
        ];
        let (w, kind) = choose_window(&ws, "Sudoku").unwrap();
        assert_eq!((w.id, kind), (20, MatchKind::ExactTitle));
        let (w, kind) = choose_window(&ws, "gnome-sudoku").unwrap();
        assert_eq!((w.id, kind), (20, MatchKind::AppName));
        let (w, kind) = choose_window(&ws, "web sudoku").unwrap();
        assert_eq!((w.id, kind), (30, MatchKind::Substring));
    }

    #[test]
    fn main_window_beats_its_dialogs() {
        let ws = vec![
            win(11, "Well done", "Gnome-sudoku", true),
            win(12, "Sudoku", "Gnome-sudoku", false),
        ];
        let (w, kind) = choose_window(&ws, "Gnome-sudoku").unwrap();
        assert_eq!((w.id, kind), (12, MatchKind::AppName));
    }

    #[test]
    fn none_or_several_list_the_candidates() {
        let ws = vec![
            win(10, "Terminal", "XTerm", false),
            win(20, "Sudoku 1", "A", false),
            win(30, "Sudoku 2", "B", false),
        ];
        let err = choose_window(&ws, "Solitaire").unwrap_err().to_string();
        assert!(err.contains("no window matches \"Solitaire\""), "{err}");
        assert!(err.contains("\"Terminal\" (XTerm"), "{err}");
        let err = choose_window(&ws, "sudoku").unwrap_err().to_string();
        assert!(err.contains("2 windows match"), "{err}");
        assert!(
            err.contains("\"Sudoku 1\"") && err.contains("\"Sudoku 2\""),
            "{err}"
        );
    }

    #[test]
    fn rectangles_overlap_only_when_they_share_pixels() {
        let a = ScreenRect {
            x: 0,
            y: 0,
            width: 10,
            height: 10,
        };
        assert!(a.intersects(&ScreenRect {
            x: 9,
            y: 9,
            width: 5,
            height: 5
        }));
        assert!(!a.intersects(&ScreenRect {
            x: 10,
            y: 0,
            width: 5,
            height: 5
        }));
        assert!(a.contains(9, 9) && !a.contains(10, 9));
    }
}
