//! The `kwin` backend: KDE Plasma on Wayland. Pictures through KWin's ScreenShot2 over
//! D-Bus (the window's area, raw pixels down a pipe), input through KWin's fake-input
//! protocol (org_kde_kwin_fake_input), the window list through Plasma's window
//! management protocol. KWin offers all three only to a program that a `.desktop` file
//! vouches for: its `Exec` is the program's own path (`sudoku-bot-full`, which the
//! `sudoku-bot` front runs), with `X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2`
//! and `X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input,org_kde_plasma_window_management`
//! (assets/kde/sudoku-bot.desktop, installed under `applications/`).
//!
//! What the safety checks can use here:
//! - the window's frame, whether it is minimised, which window is active (has the
//!   keyboard), and every window stacked above it (KWin's stacking order), so covers
//!   are known as on X11, and the game's dialogs are read;
//! - the user's pointer: KWin tells no client where the pointer is, but a KWin script
//!   the bot loads does ([`pointer`]), so a hand on the mouse stops the bot as on X11;
//! - not the user's keys: nothing tells a client of another's keys;
//! - the lock screen through org.freedesktop.ScreenSaver, when the session has it.

pub mod plasma;
pub mod pointer;
pub mod windows;

use std::cell::RefCell;
use std::io::Read;
use std::rc::Rc;
use std::time::{Duration, Instant};

use image::RgbaImage;
use tracing::{debug, info};
use wayland_protocols_plasma::fake_input::client::org_kde_kwin_fake_input::OrgKdeKwinFakeInput;
use zbus::blocking::Connection;
use zbus::zvariant::{OwnedValue, Value};

use super::client::{evdev_code, Client, BUTTON_LEFT};
use crate::input::{Input, InputError, Key, ScreenPoint};
use crate::screen::{self, Screen, ScreenError, ScreenRect, WindowInfo, WindowView};
use plasma::PlasmaWindow;
use pointer::PointerWatch;
use windows::Windows;

fn error(reason: impl Into<String>) -> ScreenError {
    ScreenError::Wayland(reason.into())
}

/// How long a window that matches nothing is looked for again (it may be opening).
const PATIENCE: Duration = Duration::from_millis(1500);

/// Every window KWin lists, topmost first.
pub fn list_windows() -> Result<Vec<WindowInfo>, ScreenError> {
    let mut windows = Windows::open().map_err(error)?;
    Ok(windows
        .list()
        .map_err(error)?
        .iter()
        .enumerate()
        .map(|(i, w)| w.info(i as u32))
        .collect())
}

/// What the bot plays on KDE Plasma.
pub struct Opened {
    pub screen: KwinScreen,
    /// `None` for a dry run.
    pub input: Option<KwinInput>,
    pub found: String,
    pub title: String,
}

/// Finds the game in KWin's window list and opens the screenshots and, unless a dry
/// run, the fake input.
pub fn open(wanted: &str, dry_run: bool) -> Result<Opened, ScreenError> {
    let bus = super::session_bus()?;
    if !super::has_owner(&bus, "org.kde.KWin.ScreenShot2") {
        return Err(error(
            "org.kde.KWin.ScreenShot2 is not on the session bus: the kwin backend needs KDE Plasma's compositor, KWin 5.27 or later",
        ));
    }
    // KWin vets each new Wayland connection against the .desktop files (it took 1.2-1.5
    // s under load): meanwhile, on a thread, ScreenShot2 is asked once (so that a
    // refusal is one line before anything is played) and the pointer's watch starts.
    let asking = {
        let bus = bus.clone();
        std::thread::spawn(move || {
            let corner = ScreenRect {
                x: 0,
                y: 0,
                width: 1,
                height: 1,
            };
            capture_area(&bus, &corner)?;
            Ok::<_, String>((!dry_run).then(|| PointerWatch::start(&bus)).flatten())
        })
    };
    let vetting = Instant::now();
    let mut windows = Windows::open().map_err(error)?;
    debug!(
        "KWin vouched for the Wayland connection in {} ms",
        vetting.elapsed().as_millis()
    );
    let start = Instant::now();
    let (game, kind) = loop {
        let list = windows.list().map_err(error)?;
        let infos: Vec<WindowInfo> = list
            .iter()
            .enumerate()
            .map(|(i, w)| w.info(i as u32))
            .collect();
        match screen::choose_window(&infos, wanted) {
            Ok((info, kind)) => break (list[info.id as usize].clone(), kind),
            Err(ScreenError::NoMatch { .. }) if start.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(e),
        }
    };
    let info = game.info(0);
    let watch = asking
        .join()
        .map_err(|_| error("the ScreenShot2 check failed"))?
        .map_err(error)?;
    info!("{} matches \"{wanted}\" by {kind}", info.describe());
    let found = format!(
        "window {} (matched by {kind} in KWin's window list)",
        info.describe()
    );
    let input = if dry_run {
        None
    } else {
        Some(KwinInput::open(windows.client.clone(), watch)?)
    };
    let saver = super::has_owner(&bus, "org.freedesktop.ScreenSaver");
    Ok(Opened {
        title: game.title.clone(),
        screen: KwinScreen {
            bus,
            windows,
            game,
            saver,
        },
        input,
        found,
    })
}

/// The game's picture from KWin's ScreenShot2, its place from KWin's window list.
pub struct KwinScreen {
    bus: Connection,
    windows: Windows,
    /// The game as last seen.
    game: PlasmaWindow,
    saver: bool,
}

impl KwinScreen {
    /// KWin's list and the game in it; [`ScreenError::Gone`] when it is not there.
    fn look(&mut self) -> Result<Vec<PlasmaWindow>, ScreenError> {
        let list = self.windows.list().map_err(error)?;
        match list.iter().find(|w| w.uuid == self.game.uuid) {
            Some(game) => self.game = game.clone(),
            None => return Err(ScreenError::Gone(self.game.info(0).describe())),
        }
        Ok(list)
    }

    /// A picture of `area` (screen pixels) from ScreenShot2.
    fn shot(&self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let start = Instant::now();
        let shot = capture_area(&self.bus, area);
        debug!(
            "ScreenShot2 of {}x{} took {} ms",
            area.width,
            area.height,
            start.elapsed().as_millis()
        );
        shot.map_err(|reason| {
            // A refusal is KWin's decision about this program, not a passing fault:
            // said once and not tried again (KWin may notice a removed .desktop file
            // only after the first screenshot it allowed).
            if reason.contains("NoAuthorized") {
                ScreenError::Wayland(reason)
            } else {
                ScreenError::Capture {
                    window: self.game.info(0).describe(),
                    reason,
                }
            }
        })
    }
}

/// The windows' ids are their ranks in the list: the game's rank is looked up each time.
fn ranked(list: &[PlasmaWindow], uuid: &str) -> (u32, Vec<WindowInfo>) {
    let at = list.iter().position(|w| w.uuid == uuid).unwrap_or(0);
    let above = list[..at]
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.minimized)
        .map(|(i, w)| w.info(stable_id(&w.uuid, i)))
        .collect();
    (stable_id(uuid, at), above)
}

/// A window's id for the bot: from its uuid, so that it stays the same while the
/// stacking order changes.
fn stable_id(uuid: &str, fallback: usize) -> u32 {
    let digits: String = uuid
        .chars()
        .filter(|c| c.is_ascii_hexdigit())
        .take(8)
        .collect();
    u32::from_str_radix(&digits, 16).unwrap_or(fallback as u32)
}

impl Screen for KwinScreen {
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        let list = self.look()?;
        let (id, above) = ranked(&list, &self.game.uuid);
        Ok(WindowView {
            window: self.game.info(id),
            viewable: !self.game.minimized,
            above,
        })
    }

    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        let rect = self.game.rect;
        self.shot(&rect)
    }

    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        self.shot(area)
    }

    /// The active window in KWin's list.
    /// No active window is still another program's focus: Plasma's desktop shell
    /// takes the keys then.
    fn focus_elsewhere(&mut self) -> Result<Option<screen::Elsewhere>, ScreenError> {
        let list = self.look()?;
        if self.game.active {
            return Ok(None);
        }
        Ok(Some(screen::Elsewhere::Window(
            list.iter()
                .find(|w| w.active)
                .map_or("no window".to_string(), |w| w.info(0).describe()),
        )))
    }

    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        if !self.saver {
            return Ok(None);
        }
        let active =
            super::screen_saver_active(&self.bus, "org.freedesktop.ScreenSaver", "/ScreenSaver");
        Ok(active.then(|| "the screen is locked (Plasma's screen locker is up)".to_string()))
    }
}

/// One picture of `area` through org.kde.KWin.ScreenShot2's CaptureArea: KWin answers
/// with the picture's size and format and writes its raw pixels down a pipe, read here
/// on a thread of its own (KWin may write before it answers).
pub fn capture_area(bus: &Connection, area: &ScreenRect) -> Result<RgbaImage, String> {
    let (reader, writer) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|e| format!("cannot make a pipe: {e}"))?;
    let reading = std::thread::spawn(move || {
        let mut data = Vec::new();
        std::fs::File::from(reader)
            .read_to_end(&mut data)
            .map(|_| data)
    });
    let options: std::collections::HashMap<&str, Value> = [
        ("include-cursor", Value::from(false)),
        ("native-resolution", Value::from(false)),
    ]
    .into();
    let reply = bus.call_method(
        Some("org.kde.KWin.ScreenShot2"),
        "/org/kde/KWin/ScreenShot2",
        Some("org.kde.KWin.ScreenShot2"),
        "CaptureArea",
        &(
            area.x,
            area.y,
            area.width,
            area.height,
            options,
            zbus::zvariant::Fd::from(writer),
        ),
    );
    // The write end went with the message: the reader sees the end of the pixels.
    let results: std::collections::HashMap<String, OwnedValue> = match reply {
        Ok(reply) => reply
            .body()
            .deserialize()
            .map_err(|e| format!("KWin's ScreenShot2 answered oddly: {e}"))?,
        Err(zbus::Error::MethodError(name, text, _)) => {
            return Err(format!(
                "KWin's ScreenShot2 refused ({name}: {}); KWin lets only programs that a .desktop file vouches for take screenshots (install assets/kde/sudoku-bot.desktop, whose X-KDE-DBUS-Restricted-Interfaces lists org.kde.KWin.ScreenShot2)",
                text.unwrap_or_default()
            ))
        }
        Err(e) => return Err(format!("KWin's ScreenShot2 failed: {e}")),
    };
    let data = reading
        .join()
        .map_err(|_| "the pipe reader failed".to_string())?
        .map_err(|e| format!("cannot read the screenshot's pixels: {e}"))?;
    let number = |key: &str| {
        results
            .get(key)
            .and_then(|v| u32::try_from(v.clone()).ok())
            .ok_or_else(|| format!("KWin's screenshot has no {key}"))
    };
    let (width, height, stride, format) = (
        number("width")?,
        number("height")?,
        number("stride")?,
        number("format")?,
    );
    qimage_to_rgba(&data, width, height, stride, format)
}

/// Raw QImage pixels as RGBA: QImage's ARGB32 formats are native-endian 32-bit words
/// (B, G, R, A in memory here), RGBA8888 and RGBX8888 bytes in that order.
fn qimage_to_rgba(
    data: &[u8],
    width: u32,
    height: u32,
    stride: u32,
    format: u32,
) -> Result<RgbaImage, String> {
    // QImage::Format_RGB32, ARGB32, ARGB32_Premultiplied; RGBX8888, RGBA8888, RGBA8888_Premultiplied.
    let bgr = match format {
        4..=6 => true,
        16..=18 => false,
        other => {
            return Err(format!(
            "KWin's screenshot has a pixel format sudoku-bot does not read (QImage format {other})"
        ))
        }
    };
    if data.len() < (stride * height) as usize || stride < width * 4 {
        return Err(format!(
            "KWin's screenshot is short: {} bytes for {width}x{height}",
            data.len()
        ));
    }
    Ok(crate::wayland::client::rows_to_rgba(
        data, width, height, stride, bgr, false,
    ))
}

/// Input through KWin's fake input.
pub struct KwinInput {
    client: Rc<RefCell<Client>>,
    fake: OrgKdeKwinFakeInput,
    at: Option<ScreenPoint>,
    /// Where KWin's pointer is, when KWin runs the bot's script.
    watch: Option<PointerWatch>,
}

impl KwinInput {
    /// The fake input on its own connection, with a watch on the pointer: the test's
    /// "user", which moves the pointer as a hand on the mouse would.
    pub fn open_alone() -> Result<KwinInput, ScreenError> {
        let windows = Windows::open().map_err(error)?;
        KwinInput::open(windows.client, None)
    }

    /// Moves the pointer to `at` (no click).
    pub fn move_to(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        self.fake.pointer_motion_absolute(at.x as f64, at.y as f64);
        self.at = Some(at);
        self.sent()
    }

    fn open(
        shared: Rc<RefCell<Client>>,
        watch: Option<PointerWatch>,
    ) -> Result<KwinInput, ScreenError> {
        let mut client = shared.borrow_mut();
        if client.global_version("org_kde_kwin_fake_input") < 4 {
            return Err(error(
                "KWin does not offer its fake input (version 4) to sudoku-bot: it offers it only to a program whose .desktop file lists org_kde_kwin_fake_input in X-KDE-Wayland-Interfaces (install assets/kde/sudoku-bot.desktop)",
            ));
        }
        let fake: OrgKdeKwinFakeInput = client.bind(4).map_err(error)?;
        fake.authenticate(
            "sudoku-bot".into(),
            "plays the Sudoku game the user chose".into(),
        );
        client.roundtrip().map_err(error)?;
        drop(client);
        Ok(KwinInput {
            client: shared,
            fake,
            at: watch.as_ref().and_then(|w| w.place(Duration::from_secs(1))),
            watch,
        })
    }

    fn sent(&mut self) -> Result<(), InputError> {
        self.client
            .borrow_mut()
            .roundtrip()
            .map_err(InputError::Send)
    }
}

impl Drop for KwinInput {
    /// KWin drops what a client sent but KWin did not read yet when the client goes
    /// away: the last keys are waited for.
    fn drop(&mut self) {
        let _ = self.sent();
    }
}

impl Input for KwinInput {
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        self.fake.pointer_motion_absolute(at.x as f64, at.y as f64);
        self.fake.button(BUTTON_LEFT, 1);
        self.fake.button(BUTTON_LEFT, 0);
        self.at = Some(at);
        self.sent()
    }

    /// Sent without waiting for KWin: the focus look before the next key waits for
    /// KWin's answer on the same connection, which comes after this key is taken.
    fn key(&mut self, key: Key) -> Result<(), InputError> {
        let code = evdev_code(key);
        self.fake.keyboard_key(code, 1);
        self.fake.keyboard_key(code, 0);
        self.client.borrow_mut().flush().map_err(InputError::Send)
    }

    /// Where KWin's script last saw the pointer; without the script, where the bot put
    /// it (then a hand on the mouse is not seen).
    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        let watched = self.watch.as_ref().and_then(|w| w.place(Duration::ZERO));
        Ok(watched.or(self.at).unwrap_or(ScreenPoint { x: -1, y: -1 }))
    }

    fn keys_held(&mut self) -> Result<bool, InputError> {
        Ok(false)
    }

    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        Ok(None)
    }
}
