//! The game's picture on GNOME Wayland: frames of Mutter's ScreenCast stream, the
//! window's place and stacking from GNOME Shell's window list, the screen saver over
//! D-Bus.

use super::*;

/// The game's picture from Mutter's stream.
pub struct GnomeScreen {
    pub(super) bus: Connection,
    pub(super) frames: Rc<Frames>,
    /// Kept alive as long as the stream is read.
    pub(super) _session: Rc<MutterSession>,
    pub(super) info: WindowInfo,
    /// True when the stream is the monitor's and the window is the part of it at
    /// `info.rect`; false when the whole stream is what is played (the monitor, or in a
    /// dry run the window's own stream).
    pub(super) placed: bool,
    /// The window's id in GNOME Shell's list, when it was found there.
    pub(super) shell_id: Option<u64>,
    /// True when org.gnome.ScreenSaver is on the bus.
    pub(super) saver: bool,
}

impl GnomeScreen {
    /// The game's entry in GNOME Shell's list, `Ok(None)` when there is no list (or it
    /// did not answer this time). A window missing from the list is looked for twice
    /// more, 50 ms apart, before it is called closed.
    pub(super) fn shell_window(&self) -> Result<Option<ShellWindow>, ScreenError> {
        let Some(id) = self.shell_id else {
            return Ok(None);
        };
        for look in 1..=3 {
            let Some(list) = shell_windows(&self.bus) else {
                return Ok(None);
            };
            if let Some(w) = list.iter().find(|w| w.id == id) {
                return Ok(Some(w.clone()));
            }
            let titles: Vec<(u64, &str)> =
                list.iter().map(|w| (w.id, w.info.title.as_str())).collect();
            debug!("look {look}: window {id} is not in GNOME Shell's list {titles:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(ScreenError::Gone(self.info.describe()))
    }
}

impl Screen for GnomeScreen {
    /// The window (or monitor) at the stream's size. Wayland tells no client what is
    /// stacked above another's window, so `above` is empty: covered cells are found in
    /// the picture.
    fn view(&mut self) -> Result<WindowView, ScreenError> {
        let mut window = self.info.clone();
        if let Some(shell) = self.shell_window()? {
            window.minimized = shell.info.minimized;
        }
        if let Some((width, height)) = self.frames.size().filter(|_| !self.placed) {
            window.rect.width = width;
            window.rect.height = height;
        }
        Ok(WindowView {
            window,
            viewable: true,
            above: Vec::new(),
        })
    }

    fn capture(&mut self) -> Result<RgbaImage, ScreenError> {
        let frame = self
            .frames
            .latest(FIRST_FRAME)
            .map_err(|reason| ScreenError::Capture {
                window: self.info.describe(),
                reason,
            })?;
        if !self.placed {
            return Ok(frame);
        }
        // The window's place was clipped to the monitor when it was found.
        let r = self.info.rect;
        let (x, y) = (r.x.max(0) as u32, r.y.max(0) as u32);
        let width = r.width.min(frame.width().saturating_sub(x));
        let height = r.height.min(frame.height().saturating_sub(y));
        Ok(image::imageops::crop_imm(&frame, x, y, width.max(1), height.max(1)).to_image())
    }

    /// The part of the stream's picture that shows `area` (screen pixels).
    fn capture_area(&mut self, area: &ScreenRect) -> Result<RgbaImage, ScreenError> {
        let picture = self.capture()?;
        let x = (area.x - self.info.rect.x).clamp(0, picture.width() as i32) as u32;
        let y = (area.y - self.info.rect.y).clamp(0, picture.height() as i32) as u32;
        let width = area.width.min(picture.width() - x);
        let height = area.height.min(picture.height() - y);
        if width == 0 || height == 0 {
            return Err(ScreenError::Capture {
                window: self.info.describe(),
                reason: "the area is outside the recorded picture".into(),
            });
        }
        Ok(image::imageops::crop_imm(&picture, x, y, width, height).to_image())
    }

    /// From GNOME Shell's window list when the bot has it. Without it Wayland does not
    /// say which window has the keyboard: `None` then, and the bot relies on its click
    /// (which gives the game the focus) and on the verification of what the game shows.
    fn focus_elsewhere(&mut self) -> Result<Option<screen::Elsewhere>, ScreenError> {
        let Some(shell) = self.shell_window()? else {
            return Ok(None);
        };
        if shell.has_focus {
            return Ok(None);
        }
        // No window listed with the focus: the Shell's own (the overview's search).
        let others = shell_windows(&self.bus).unwrap_or_default();
        Ok(Some(screen::Elsewhere::Window(
            others
                .into_iter()
                .find(|w| w.has_focus)
                .map_or("another window".to_string(), |w| unplaced(&w.info)),
        )))
    }

    /// Frames come through a PipeWire stream, some tens of milliseconds behind.
    fn captures_lag(&self) -> bool {
        true
    }
    fn locked(&mut self) -> Result<Option<String>, ScreenError> {
        if !self.saver {
            return Ok(None);
        }
        let active = super::screen_saver_active(
            &self.bus,
            "org.gnome.ScreenSaver",
            "/org/gnome/ScreenSaver",
        );
        Ok(active.then(|| "the screen is locked (GNOME's screen shield is up)".to_string()))
    }
}
