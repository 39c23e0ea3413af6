//! The `wlroots` backend: sway and other compositors built on wlroots. Frames through
//! wlr-screencopy (only the window's part of the output is copied), input through the
//! wlroots virtual pointer and the virtual keyboard (typing with the seat's own keymap),
//! and, under sway, the window list from sway's IPC (`SWAYSOCK`): each window's place,
//! focus, visibility and the floating windows stacked over it. Native Wayland windows
//! and X11 windows under the compositor's Xwayland are played alike.
//!
//! What the safety checks can use here:
//! - under sway: the window's place and whether it is shown, which window has the
//!   keyboard focus, and the floating windows (dialogs, pop-ups) over it; its dialogs
//!   are read like X11 ones. Without sway's IPC the whole first output is played, and
//!   focus and covers are not known (a covered grid still fails to read);
//! - not the pointer or the keyboard of the user: wlroots tells no client where the
//!   pointer is or which keys are down, so the pointer is where the bot put it and no
//!   user activity is seen;
//! - not the lock screen (a locked session shows no grid, so nothing is read or typed).

mod sway;

use std::time::{Duration, Instant};

use image::RgbaImage;
use tracing::info;
use wayland_client::protocol::wl_seat;
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::{
    zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1,
    zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1,
};
use wayland_protocols_wlr::screencopy::v1::client::zwlr_screencopy_manager_v1::ZwlrScreencopyManagerV1;
use wayland_protocols_wlr::virtual_pointer::v1::client::{
    zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1,
    zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1,
};

use super::client::{evdev_code, Client, BUTTON_LEFT};
use crate::input::{Input, InputError, Key, ScreenPoint};
use crate::screen::{self, Screen, ScreenError, ScreenRect, WindowInfo, WindowView};

pub use sway::{socket as sway_socket, Sway, SwayWindow};

/// The globals a wlroots compositor offers that the backend needs.
pub const GLOBALS: [&str; 3] = [
    "zwlr_screencopy_manager_v1",
    "zwlr_virtual_pointer_manager_v1",
    "zwp_virtual_keyboard_manager_v1",
];

fn error(reason: impl Into<String>) -> ScreenError {
    ScreenError::Wayland(reason.into())
}

/// How long a window that matches nothing is looked for again (it may be opening).
const PATIENCE: Duration = Duration::from_millis(1500);

/// Every window sway lists, topmost first; `None` without sway's IPC.
pub fn list_windows() -> Result<Option<Vec<WindowInfo>>, ScreenError> {
    if sway::socket().is_none() {
        return Ok(None);
    }
    let mut sway = Sway::connect().map_err(error)?;
    Ok(Some(
        sway.windows()
            .map_err(error)?
            .into_iter()
            .map(|w| w.info)
            .collect(),
    ))
}

/// What the bot plays on a wlroots desktop.
pub struct Opened {
    pub screen: WlrScreen,
    /// `None` for a dry run.
    pub input: Option<WlrInput>,
    pub found: String,
    pub title: String,
}

/// The layout's outputs: their places (from sway), else the first output at 0,0.
fn layout(
    client: &Client,
    sway: Option<&mut Sway>,
) -> Result<Vec<(String, ScreenRect)>, ScreenError> {
    if let Some(sway) = sway {
        return sway.outputs().map_err(error);
    }
    let (_, info) = client
        .state
        .outputs
        .first()
        .ok_or_else(|| error("the compositor has no output"))?;
    Ok(vec![(
        info.name.clone(),
        ScreenRect {
            x: 0,
            y: 0,
            width: info.width,
            height: info.height,
        },
    )])
}

/// Finds the game (in sway's tree by title, else the first output), and opens the
/// screencopy and, unless a dry run, the virtual pointer and keyboard.
pub fn open(wanted: &str, dry_run: bool) -> Result<Opened, ScreenError> {
    let client = Client::connect().map_err(error)?;
    for name in GLOBALS {
        if !client.has(name) {
            return Err(error(format!(
                "the compositor does not offer {name}: the wlroots backend needs a wlroots compositor such as sway"
            )));
        }
    }
    let mut sway = match sway::socket() {
        Some(_) => Some(Sway::connect().map_err(error)?),
        None => None,
    };
    let outputs = layout(&client, sway.as_mut())?;
    let (info, found, sway_id) = match sway.as_mut() {
        Some(sway) => {
            let (window, kind) = find_window(sway, wanted)?;
            let found = format!(
                "window {} (matched by {kind} in sway's tree)",
                window.info.describe()
            );
            (window.info.clone(), found, Some(window.info.id))
        }
        None => {
            let (name, rect) = outputs[0].clone();
            info!("no sway IPC (SWAYSOCK): looking for the grid on the whole output {name}");
            let info = WindowInfo {
                id: 0,
                title: format!("output {name}"),
                app_name: "wlroots".into(),
                pid: None,
                rect,
                minimized: false,
                dialog: false,
            };
            (
                info,
                format!("the whole output {name} (no window list without sway's IPC)"),
                None,
            )
        }
    };
    let title = if sway_id.is_some() {
        info.title.clone()
    } else {
        wanted.to_string()
    };
    let input = if dry_run {
        None
    } else {
        Some(WlrInput::open(&outputs)?)
    };
    let screencopy: ZwlrScreencopyManagerV1 = client.bind(3).map_err(error)?;
    Ok(Opened {
        screen: WlrScreen {
            client,
            screencopy,
            sway,
            sway_id,
            outputs,
            info,
        },
        input,
        found,
        title,
    })
}

fn find_window(
    sway: &mut Sway,
    wanted: &str,
) -> Result<(SwayWindow, screen::MatchKind), ScreenError> {
    let start = Instant::now();
    loop {
        let list = sway.windows().map_err(error)?;
        let infos: Vec<WindowInfo> = list.iter().map(|w| w.info.clone()).collect();
        match screen::choose_window(&infos, wanted) {
            Ok((info, kind)) => {
                info!("{} matches \"{wanted}\" by {kind}", info.describe());
                let id = info.id;
                if let Some(w) = list.into_iter().find(|w| w.info.id == id) {
                    return Ok((w, kind));
                }
            }
            Err(ScreenError::NoMatch { .. }) if start.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(e),
        }
    }
}

/// The game's picture through wlroots' screencopy, its place from sway.
pub struct WlrScreen {
    client: Client,
    screencopy: ZwlrScreencopyManagerV1,
    sway: Option<Sway>,
    /// The game's container id in sway's tree.
    sway_id: Option<u32>,
    /// The outputs' names and places in the layout.
    outputs: Vec<(String, ScreenRect)>,
    /// The window as last seen.
    info: WindowInfo,
}

impl WlrScreen {
    /// sway's list and the game in it; [`ScreenError::Gone`] when it is no longer
    /// there (looked for three times, 50 ms apart). `None` without sway.
    fn sway_window(&mut self) -> Result<Option<(Vec<SwayWindow>, SwayWindow)>, ScreenError> {
        let (Some(sway), Some(id)) = (self.sway.as_mut(), self.sway_id) else {
            return Ok(None);
        };
        for _ in 0..3 {
            let list = sway.windows().map_err(error)?;
            if let Some(game) = list.iter().find(|w| w.info.id == id).cloned() {
                self.info = game.info.clone();
                return Ok(Some((list, game)));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(ScreenError::Gone(self.info.describe()))
    }

    /// A picture of `area` (layout pixels), clipped to the output that holds its
    /// top left corner.
    fn copy(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let fail = |reason: String| ScreenError::Capture {
            window: self.info.describe(),
            reason,
        };
        let (index, (name, output)) = self
            .outputs
            .iter()
            .enumerate()
            .find(|(_, (_, o))| o.contains(area.x.max(o.x), area.y.max(o.y)) && o.intersects(area))
            .ok_or_else(|| fail("the area is on no output".into()))?;
        // The wl_output of that name (wl_output 4 names them), else the same rank.
        let wl_index = self
            .client
            .state
            .outputs
            .iter()
            .position(|(_, info)| !info.name.is_empty() && info.name == *name)
            .unwrap_or(index);
        let x0 = area.x.max(output.x);
        let y0 = area.y.max(output.y);
        let x1 = (area.x + area.width as i32).min(output.x + output.width as i32);
        let y1 = (area.y + area.height as i32).min(output.y + output.height as i32);
        if x1 <= x0 || y1 <= y0 {
            return Err(fail("the area is outside the output".into()));
        }
        let region = ScreenRect {
            x: x0 - output.x,
            y: y0 - output.y,
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
        };
        let picture = self
            .client
            .screencopy(&self.screencopy, wl_index, Some(region))
            .map_err(fail)?;
        // A scaled output copies its own pixels: back to layout pixels.
        if picture.dimensions() != (region.width, region.height) {
            return Ok(image::imageops::resize(
                &picture,
                region.width,
                region.height,
                image::imageops::FilterType::Triangle,
            ));
        }
        Ok(picture)
    }
}

impl Screen for WlrScreen {
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        let Some((list, game)) = self.sway_window()? else {
            return Ok(WindowView {
                window: self.info.clone(),
                viewable: true,
                above: Vec::new(),
            });
        };
        Ok(WindowView {
            above: sway::above(&list, &game),
            viewable: game.visible,
            window: game.info,
        })
    }

    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        let rect = self.info.rect;
        self.copy(&rect)
    }

    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        self.copy(area)
    }

    /// The focused window in sway's tree; without sway, not known (`None`).
    /// No window focused may be a panel that takes the keys: another program's.
    fn focus_elsewhere(&mut self) -> Result<Option<screen::Elsewhere>, ScreenError> {
        let Some((list, game)) = self.sway_window()? else {
            return Ok(None);
        };
        if game.focused {
            return Ok(None);
        }
        Ok(Some(screen::Elsewhere::Window(
            list.iter().find(|w| w.focused).map_or(
                "no window (an empty workspace or a panel)".to_string(),
                |w| w.info.describe(),
            ),
        )))
    }

    /// wlroots tells no client that the session is locked.
    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        Ok(None)
    }
}

/// Input through wlroots' virtual pointer and virtual keyboard.
pub struct WlrInput {
    client: Client,
    pointer: ZwlrVirtualPointerV1,
    keyboard: ZwpVirtualKeyboardV1,
    /// The layout's bounding box: absolute motion is a fraction of it.
    extent: ScreenRect,
    /// Where the bot last put the pointer.
    at: Option<ScreenPoint>,
    start: Instant,
    /// The last event's time.
    last: u32,
}

impl WlrInput {
    fn open(outputs: &[(String, ScreenRect)]) -> Result<WlrInput, ScreenError> {
        let mut client = Client::connect().map_err(error)?;
        let seat: wl_seat::WlSeat = client.bind(1).map_err(error)?;
        let pointers: ZwlrVirtualPointerManagerV1 = client.bind(1).map_err(error)?;
        let keyboards: ZwpVirtualKeyboardManagerV1 = client.bind(1).map_err(error)?;
        let qh = client.queue.handle();
        let pointer = pointers.create_virtual_pointer(Some(&seat), &qh, ());
        let keyboard = keyboards.create_virtual_keyboard(&seat, &qh, ());
        let (keymap, size) = super::client::keymap().map_err(error)?;
        // XKB_V1, the only format the protocol knows.
        keyboard.keymap(1, std::os::fd::AsFd::as_fd(&keymap), size);
        client.roundtrip().map_err(error)?;
        let x0 = outputs.iter().map(|(_, o)| o.x).min().unwrap_or(0);
        let y0 = outputs.iter().map(|(_, o)| o.y).min().unwrap_or(0);
        let x1 = outputs
            .iter()
            .map(|(_, o)| o.x + o.width as i32)
            .max()
            .unwrap_or(1);
        let y1 = outputs
            .iter()
            .map(|(_, o)| o.y + o.height as i32)
            .max()
            .unwrap_or(1);
        Ok(WlrInput {
            client,
            pointer,
            keyboard,
            extent: ScreenRect {
                x: x0,
                y: y0,
                width: (x1 - x0).max(1) as u32,
                height: (y1 - y0).max(1) as u32,
            },
            at: None,
            start: Instant::now(),
            last: 0,
        })
    }

    /// The event's time in milliseconds, later than every earlier event's (a press
    /// and its release never share a time).
    fn now(&mut self) -> u32 {
        let t = (self.start.elapsed().as_millis() as u32).max(self.last + 1);
        self.last = t;
        t
    }

    fn sent(&mut self) -> Result<(), InputError> {
        self.client.roundtrip().map_err(InputError::Send)
    }
}

impl Input for WlrInput {
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        use wayland_client::protocol::wl_pointer::ButtonState;
        let t = self.now();
        self.pointer.motion_absolute(
            t,
            (at.x - self.extent.x).max(0) as u32,
            (at.y - self.extent.y).max(0) as u32,
            self.extent.width,
            self.extent.height,
        );
        self.pointer.frame();
        let t = self.now();
        self.pointer.button(t, BUTTON_LEFT, ButtonState::Pressed);
        self.pointer.frame();
        let t = self.now();
        self.pointer.button(t, BUTTON_LEFT, ButtonState::Released);
        self.pointer.frame();
        self.at = Some(at);
        self.sent()
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        let code = evdev_code(key);
        let t = self.now();
        self.keyboard.key(t, code, 1);
        let t = self.now();
        self.keyboard.key(t, code, 0);
        self.sent()
    }

    /// wlroots does not tell a client where the pointer is: where the bot put it.
    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        Ok(self.at.unwrap_or(ScreenPoint { x: -1, y: -1 }))
    }

    /// Not visible to a Wayland client.
    fn keys_held(&mut self) -> Result<bool, InputError> {
        Ok(false)
    }

    /// Not visible to a Wayland client.
    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        Ok(None)
    }
}
