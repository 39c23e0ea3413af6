//! The real screen on X11: the game's window captured with xcap, and its geometry,
//! stacking, mapping, focus and the screen saver asked over one persistent x11rb
//! connection (GNOME's screen saver over D-Bus where the session has one).

use super::*;

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

    /// The root window's pixels in `area`, clipped to the screen.
    fn capture_root_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
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
        // The title as it is now: a game may say "Solved" there.
        if let Ok(title) = self.x11.title(id) {
            window.title = title;
        }
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

    /// The root window's pixels; where those fail or come back blank (Xwayland gives
    /// no root picture), the windows over the area, each captured on its own (xcap),
    /// laid over each other bottom to top.
    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let root = self.capture_root_area(area);
        match root {
            Ok(picture) if !blank(&picture) => Ok(picture),
            root => match windows_over(area) {
                Some(picture) => Ok(picture),
                None => root,
            },
        }
    }

    fn focus_elsewhere(&mut self) -> Result<Option<Elsewhere>, ScreenError> {
        let focus = self.x11.conn.get_input_focus()?.reply()?.focus;
        match focus {
            0 => return Ok(Some(Elsewhere::Nobody("no window".into()))),
            // PointerRoot: keys go to whatever is under the pointer.
            1 => {
                return Ok(Some(Elsewhere::Window(
                    "no window (keys go to the window under the pointer)".into(),
                )))
            }
            _ => {}
        }
        // Inside the game's window and made by the game's own client: a window of
        // another program reparented into the game is not the game.
        if self.x11.is_inside(focus, self.info.id)? {
            if self.x11.same_client(focus, self.info.id) {
                return Ok(None);
            }
            return Ok(Some(Elsewhere::Window(format!(
                "{} (a window of another program inside the game's window)",
                self.x11.window_info(focus, None).describe()
            ))));
        }
        // A window of the window manager's own (a frame, or the window it focuses
        // when no window has the focus): keys reach no program. Openbox holds it so
        // between a window unmapped and the next one focused.
        if self.x11.is_window_managers(focus)? {
            return Ok(Some(Elsewhere::Nobody(
                "no window (the window manager holds it)".into(),
            )));
        }
        let top = self.x11.top_level(focus).unwrap_or(focus);
        let client = self.x11.client_of(top).unwrap_or(top);
        Ok(Some(Elsewhere::Window(
            self.x11.window_info(client, None).describe(),
        )))
    }

    fn game_window(&self) -> Option<&WindowInfo> {
        Some(&self.info)
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

/// True when every pixel has the same colour: nothing was captured.
fn blank(picture: &RgbaImage) -> bool {
    let mut pixels = picture.pixels();
    let first = pixels.next();
    pixels.all(|p| Some(p) == first)
}

/// The windows xcap lists over `area`, each captured on its own and laid over each
/// other bottom to top on a black picture of the area; `None` when none could be
/// captured.
fn windows_over(area: &ScreenRect) -> Option<RgbaImage> {
    let mut picture = RgbaImage::from_pixel(area.width, area.height, image::Rgba([0, 0, 0, 255]));
    let mut any = false;
    // Topmost first: painted in reverse.
    for w in xcap::Window::all().ok()?.iter().rev() {
        let (Ok(x), Ok(y), Ok(width), Ok(height)) = (w.x(), w.y(), w.width(), w.height()) else {
            continue;
        };
        let rect = ScreenRect {
            x,
            y,
            width,
            height,
        };
        if !rect.intersects(area) || w.is_minimized().unwrap_or(false) {
            continue;
        }
        let Ok(shot) = w.capture_image() else {
            continue;
        };
        image::imageops::overlay(
            &mut picture,
            &shot,
            i64::from(x - area.x),
            i64::from(y - area.y),
        );
        any = true;
    }
    any.then_some(picture)
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
pub(super) struct X11 {
    pub(super) conn: RustConnection,
    pub(super) root: Window,
    atoms: Atoms,
    /// The bits of a resource id that a client chooses; the rest name the client.
    id_mask: u32,
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
    supporting_wm_check: Atom,
}

impl X11 {
    pub(super) fn connect() -> Result<X11, ScreenError> {
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
            supporting_wm_check: intern(b"_NET_SUPPORTING_WM_CHECK")?,
        };
        let id_mask = conn.setup().resource_id_mask;
        Ok(X11 {
            conn,
            root,
            atoms,
            id_mask,
        })
    }

    pub(super) fn u32_property(
        &self,
        window: Window,
        property: Atom,
    ) -> Result<Vec<u32>, ScreenError> {
        let reply = self
            .conn
            .get_property(false, window, property, AtomEnum::ANY, 0, 4096)?
            .reply()?;
        Ok(reply.value32().map(|v| v.collect()).unwrap_or_default())
    }

    pub(super) fn string_property(
        &self,
        window: Window,
        property: Atom,
    ) -> Result<Vec<u8>, ScreenError> {
        let reply = self
            .conn
            .get_property(false, window, property, AtomEnum::ANY, 0, 4096)?
            .reply()?;
        Ok(reply.value)
    }

    /// True when the same X client (connection) created both windows: a client's
    /// resource ids share the bits outside the server's resource id mask.
    pub(super) fn same_client(&self, a: Window, b: Window) -> bool {
        a & !self.id_mask == b & !self.id_mask
    }

    /// The process of the X client that created `window`, as the server knows it
    /// (X-Resource's LocalClientPID: from the socket, which a program cannot forge as
    /// it can `_NET_WM_PID`). `None` for a remote client or without the extension.
    pub(super) fn client_pid(&self, window: Window) -> Option<u32> {
        use x11rb::protocol::res::{ClientIdMask, ClientIdSpec, ConnectionExt as _};
        self.conn
            .extension_information(x11rb::protocol::res::X11_EXTENSION_NAME)
            .ok()??;
        let reply = self
            .conn
            .res_query_client_ids(&[ClientIdSpec {
                client: window,
                mask: ClientIdMask::LOCAL_CLIENT_PID,
            }])
            .ok()?
            .reply()
            .ok()?;
        reply.ids.first()?.value.first().copied()
    }

    /// The child of the root that holds `window` (its frame under a reparenting
    /// window manager, else the window itself).
    pub(super) fn top_level(&self, mut window: Window) -> Result<Window, ScreenError> {
        loop {
            let tree = self.conn.query_tree(window)?.reply()?;
            if tree.parent == self.root || tree.parent == x11rb::NONE {
                return Ok(window);
            }
            window = tree.parent;
        }
    }

    /// True when `window` is `ancestor` or lies inside it.
    pub(super) fn is_inside(
        &self,
        mut window: Window,
        ancestor: Window,
    ) -> Result<bool, ScreenError> {
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
    pub(super) fn client_of(&self, frame: Window) -> Result<Window, ScreenError> {
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
    pub(super) fn visible_windows(
        &self,
        windows: &[Window],
    ) -> Result<Vec<WindowInfo>, ScreenError> {
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
            // An InputOnly window shows nothing but takes every click over it: a
            // cover like any other.
            if a.map_state != MapState::VIEWABLE {
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
    pub(super) fn window_info(&self, id: Window, rect: Option<ScreenRect>) -> WindowInfo {
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
    pub(super) fn screen_saver_on(&self) -> Result<bool, ScreenError> {
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
    pub(super) fn client_rect(&self, window: Window) -> Result<ScreenRect, ScreenError> {
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

    /// True when the window manager's X client made `window`: the client of the
    /// window named by the root's `_NET_SUPPORTING_WM_CHECK` (EWMH).
    pub(super) fn is_window_managers(&self, window: Window) -> Result<bool, ScreenError> {
        let check = self.u32_property(self.root, self.atoms.supporting_wm_check)?;
        Ok(check
            .first()
            .is_some_and(|&wm| wm != 0 && self.same_client(window, wm)))
    }

    pub(super) fn is_hidden(&self, window: Window) -> Result<bool, ScreenError> {
        Ok(self
            .u32_property(window, self.atoms.wm_state)?
            .contains(&self.atoms.wm_state_hidden))
    }

    pub(super) fn is_dialog(&self, window: Window) -> Result<bool, ScreenError> {
        let transient = !self
            .u32_property(window, AtomEnum::WM_TRANSIENT_FOR.into())?
            .is_empty();
        let types = self.u32_property(window, self.atoms.wm_window_type)?;
        let not_normal = !types.is_empty() && !types.contains(&self.atoms.wm_window_type_normal);
        Ok(transient || not_normal)
    }

    pub(super) fn pid(&self, window: Window) -> Option<u32> {
        self.u32_property(window, self.atoms.wm_pid)
            .ok()?
            .first()
            .copied()
    }

    pub(super) fn title(&self, window: Window) -> Result<String, ScreenError> {
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

    pub(super) fn app_name(&self, window: Window) -> Result<String, ScreenError> {
        let class = self.string_property(window, AtomEnum::WM_CLASS.into())?;
        Ok(class
            .split(|&b| b == 0)
            .nth(1)
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_default())
    }
}
