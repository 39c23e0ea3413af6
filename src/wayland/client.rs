//! A plain Wayland client of the compositor (the wlroots and KWin backends): its
//! globals, outputs and seat, wlroots' screencopy into shared memory, and the seat's
//! keymap (handed on to a virtual keyboard). Every wait for the compositor has a limit.

use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use image::RgbaImage;
use wayland_client::globals::{registry_queue_init, GlobalList, GlobalListContents};
use wayland_client::protocol::{wl_buffer, wl_output, wl_registry, wl_seat, wl_shm, wl_shm_pool};
use wayland_client::{delegate_noop, Connection, Dispatch, EventQueue, Proxy, QueueHandle, WEnum};
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::{
    zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1,
    zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1,
};
use wayland_protocols_plasma::fake_input::client::org_kde_kwin_fake_input::OrgKdeKwinFakeInput;
use wayland_protocols_wlr::screencopy::v1::client::{
    zwlr_screencopy_frame_v1::{self, ZwlrScreencopyFrameV1},
    zwlr_screencopy_manager_v1::ZwlrScreencopyManagerV1,
};
use wayland_protocols_wlr::virtual_pointer::v1::client::{
    zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1,
    zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1,
};

use crate::screen::ScreenRect;

/// How long the compositor gets to answer one request.
const ANSWER: Duration = Duration::from_secs(5);

/// One output of the compositor.
#[derive(Debug, Clone, Default)]
pub struct OutputInfo {
    /// Its connector name ("HEADLESS-1"), from wl_output version 4.
    pub name: String,
    /// Its current mode, in pixels.
    pub width: u32,
    pub height: u32,
}

/// What the compositor told the client.
#[derive(Default)]
pub struct State {
    pub outputs: Vec<(wl_output::WlOutput, OutputInfo)>,
    /// KWin's windows, when the client asked for them.
    pub plasma: super::kwin::plasma::Plasma,
    frame: FrameState,
}

#[derive(Default)]
struct FrameState {
    buffer: Option<(WEnum<wl_shm::Format>, u32, u32, u32)>,
    buffer_done: bool,
    y_invert: bool,
    ready: bool,
    failed: bool,
}

/// A shared-memory buffer screencopy writes into, kept while the frames keep its size.
struct ShmBuffer {
    key: (u32, u32, u32, u32),
    map: memmap2::MmapMut,
    buffer: wl_buffer::WlBuffer,
    pool: wl_shm_pool::WlShmPool,
}

impl Drop for ShmBuffer {
    fn drop(&mut self) {
        self.buffer.destroy();
        self.pool.destroy();
    }
}

/// A client connection with its globals listed and its outputs known.
pub struct Client {
    pub queue: EventQueue<State>,
    pub state: State,
    pub globals: GlobalList,
    shm: Option<ShmBuffer>,
}

impl Client {
    /// Connects to the compositor `WAYLAND_DISPLAY` names and learns its outputs.
    pub fn connect() -> Result<Client, String> {
        let conn = Connection::connect_to_env().map_err(|e| {
            format!("cannot connect to the Wayland compositor (WAYLAND_DISPLAY): {e}")
        })?;
        let (globals, queue) = registry_queue_init::<State>(&conn)
            .map_err(|e| format!("the Wayland compositor's globals: {e}"))?;
        let mut client = Client {
            queue,
            state: State::default(),
            globals,
            shm: None,
        };
        let qh = client.queue.handle();
        let outputs: Vec<u32> = client.globals.contents().with_list(|list| {
            list.iter()
                .filter(|g| g.interface == wl_output::WlOutput::interface().name)
                .map(|g| g.name)
                .collect()
        });
        for name in outputs {
            let version = client
                .global_version(wl_output::WlOutput::interface().name)
                .min(4);
            let output: wl_output::WlOutput =
                client.globals.registry().bind(name, version, &qh, ());
            client.state.outputs.push((output, OutputInfo::default()));
        }
        client.roundtrip()?;
        Ok(client)
    }

    /// The version the compositor offers of `interface`, 0 when it has none.
    pub fn global_version(&self, interface: &str) -> u32 {
        self.globals.contents().with_list(|list| {
            list.iter()
                .filter(|g| g.interface == interface)
                .map(|g| g.version)
                .max()
                .unwrap_or(0)
        })
    }

    pub fn has(&self, interface: &str) -> bool {
        self.global_version(interface) > 0
    }

    pub fn roundtrip(&mut self) -> Result<(), String> {
        self.queue
            .roundtrip(&mut self.state)
            .map(|_| ())
            .map_err(|e| format!("the Wayland compositor stopped answering: {e}"))
    }

    /// Sends what was asked without waiting for the compositor's answer.
    pub fn flush(&mut self) -> Result<(), String> {
        self.queue
            .flush()
            .map_err(|e| format!("the Wayland compositor stopped answering: {e}"))
    }

    /// Binds a global (versions `1..=max`), naming it in the error.
    pub fn bind<I>(&self, max: u32) -> Result<I, String>
    where
        I: Proxy + 'static,
        State: Dispatch<I, ()>,
    {
        self.globals
            .bind::<I, State, ()>(&self.queue.handle(), 1..=max, ())
            .map_err(|_| {
                format!(
                    "the Wayland compositor does not offer {}",
                    I::interface().name
                )
            })
    }

    /// Dispatches events until `done` holds, for at most [`ANSWER`].
    fn wait(&mut self, what: &str, done: impl Fn(&State) -> bool) -> Result<(), String> {
        let start = Instant::now();
        let fail = |e: &dyn std::fmt::Display| format!("the Wayland compositor failed {what}: {e}");
        loop {
            self.queue
                .dispatch_pending(&mut self.state)
                .map_err(|e| fail(&e))?;
            if done(&self.state) {
                return Ok(());
            }
            let left = ANSWER.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(format!(
                    "the Wayland compositor did not answer {what} within {ANSWER:?}"
                ));
            }
            self.queue.flush().map_err(|e| fail(&e))?;
            let Some(guard) = self.queue.prepare_read() else {
                continue;
            };
            let fd = guard.connection_fd();
            let mut fds = [rustix::event::PollFd::new(
                &fd,
                rustix::event::PollFlags::IN,
            )];
            let timeout = rustix::event::Timespec::try_from(left.min(Duration::from_millis(100)))
                .unwrap_or(rustix::event::Timespec {
                    tv_sec: 0,
                    tv_nsec: 100_000_000,
                });
            if rustix::event::poll(&mut fds, Some(&timeout)).unwrap_or(0) > 0 {
                guard.read().map_err(|e| fail(&e))?;
            }
        }
    }

    /// One picture of `region` of output `output` (its own pixels, from the top left
    /// corner), or the whole output, through wlroots' screencopy; `None` as region
    /// means the whole output. The cursor is left out.
    pub fn screencopy(
        &mut self,
        manager: &ZwlrScreencopyManagerV1,
        output: usize,
        region: Option<ScreenRect>,
    ) -> Result<RgbaImage, String> {
        let qh = self.queue.handle();
        let wl_output = &self
            .state
            .outputs
            .get(output)
            .ok_or("the compositor has no output")?
            .0;
        self.state.frame = FrameState::default();
        let frame = match region {
            Some(r) => manager.capture_output_region(
                0,
                wl_output,
                r.x,
                r.y,
                r.width as i32,
                r.height as i32,
                &qh,
                (),
            ),
            None => manager.capture_output(0, wl_output, &qh, ()),
        };
        let v3 = manager.version() >= 3;
        let described = self.wait("to describe a screencopy frame", |s| {
            s.frame.failed || (s.frame.buffer.is_some() && (!v3 || s.frame.buffer_done))
        });
        let copied = described.and_then(|()| {
            if self.state.frame.failed {
                return Err("the compositor refused to copy the screen".to_string());
            }
            let (format, width, height, stride) = self
                .state
                .frame
                .buffer
                .ok_or("no shared-memory format offered")?;
            let format_code = match format {
                WEnum::Value(f) => f as u32,
                WEnum::Unknown(u) => u,
            };
            let shm = self.shm_buffer(format_code, width, height, stride)?;
            frame.copy(&shm.buffer);
            self.wait("to copy the screen", |s| s.frame.ready || s.frame.failed)?;
            if self.state.frame.failed {
                return Err("the compositor failed to copy the screen".to_string());
            }
            let shm = self.shm.as_ref().ok_or("no buffer")?;
            to_rgba(
                &shm.map,
                format,
                width,
                height,
                stride,
                self.state.frame.y_invert,
            )
        });
        frame.destroy();
        copied
    }

    /// A buffer of that format and size, reused from the last frame when it fits.
    fn shm_buffer(
        &mut self,
        format: u32,
        width: u32,
        height: u32,
        stride: u32,
    ) -> Result<&ShmBuffer, String> {
        let key = (format, width, height, stride);
        if self.shm.as_ref().is_none_or(|b| b.key != key) {
            self.shm = None;
            let shm: wl_shm::WlShm = self.bind(1)?;
            let size = (stride * height) as usize;
            let fd =
                rustix::fs::memfd_create("sudoku-bot-screencopy", rustix::fs::MemfdFlags::CLOEXEC)
                    .map_err(|e| format!("cannot create shared memory: {e}"))?;
            rustix::fs::ftruncate(&fd, size as u64)
                .map_err(|e| format!("cannot size shared memory: {e}"))?;
            let file = std::fs::File::from(fd);
            // SAFETY: the file is ours alone (a memfd); the compositor writes into it only
            // while a copy is pending, and it is read only after the copy is ready.
            let map = unsafe { memmap2::MmapMut::map_mut(&file) }
                .map_err(|e| format!("cannot map shared memory: {e}"))?;
            let qh = self.queue.handle();
            let pool = shm.create_pool(file.as_fd(), size as i32, &qh, ());
            let format = wl_shm::Format::try_from(format)
                .map_err(|_| format!("unknown pixel format {format:#x}"))?;
            let buffer = pool.create_buffer(
                0,
                width as i32,
                height as i32,
                stride as i32,
                format,
                &qh,
                (),
            );
            self.shm = Some(ShmBuffer {
                key,
                map,
                buffer,
                pool,
            });
        }
        self.shm.as_ref().ok_or_else(|| "no buffer".into())
    }
}

/// The frame's pixels as RGBA: wl_shm's 32-bit formats are little-endian words, so
/// XRGB8888 lies in memory as B, G, R, X and XBGR8888 as R, G, B, X.
fn to_rgba(
    data: &[u8],
    format: WEnum<wl_shm::Format>,
    width: u32,
    height: u32,
    stride: u32,
    y_invert: bool,
) -> Result<RgbaImage, String> {
    use wl_shm::Format as F;
    let bgr = match format {
        WEnum::Value(F::Xrgb8888 | F::Argb8888) => true,
        WEnum::Value(F::Xbgr8888 | F::Abgr8888) => false,
        other => {
            return Err(format!(
                "the compositor offers an unsupported pixel format ({other:?})"
            ))
        }
    };
    Ok(rows_to_rgba(data, width, height, stride, bgr, y_invert))
}

/// Rows of 32-bit pixels, `stride` bytes apart, as an opaque RGBA picture: `bgr` when
/// each pixel's bytes are blue, green, red (else red, green, blue), the fourth ignored;
/// `y_invert` when the last row comes first. `data` holds `stride * height` bytes.
pub fn rows_to_rgba(
    data: &[u8],
    width: u32,
    height: u32,
    stride: u32,
    bgr: bool,
    y_invert: bool,
) -> RgbaImage {
    // Row by row into one buffer (a look at a 730x677 window is 2 MB; put_pixel's
    // checks a pixel cost more than the copy).
    let row_bytes = (width * 4) as usize;
    let mut out = Vec::with_capacity(row_bytes * height as usize);
    for y in 0..height {
        let source = if y_invert { height - 1 - y } else { y };
        let row = &data[(source * stride) as usize..][..row_bytes];
        if bgr {
            out.extend(row.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0], 255]));
        } else {
            out.extend(row.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2], 255]));
        }
    }
    RgbaImage::from_raw(width, height, out).unwrap_or_else(|| RgbaImage::new(width, height))
}

#[cfg(test)]
mod tests {
    use super::rows_to_rgba;

    /// Two rows of two pixels, 12 bytes apart (4 bytes of padding a row).
    const ROWS: [u8; 24] = [
        1, 2, 3, 9, 4, 5, 6, 9, 0, 0, 0, 0, //
        7, 8, 9, 9, 10, 11, 12, 9, 0, 0, 0, 0,
    ];

    #[test]
    fn blue_green_red_rows_become_opaque_rgba() {
        let picture = rows_to_rgba(&ROWS, 2, 2, 12, true, false);
        assert_eq!(picture.get_pixel(0, 0).0, [3, 2, 1, 255]);
        assert_eq!(picture.get_pixel(1, 1).0, [12, 11, 10, 255]);
    }

    #[test]
    fn an_upside_down_picture_is_turned_upright() {
        let picture = rows_to_rgba(&ROWS, 2, 2, 12, false, true);
        assert_eq!(picture.get_pixel(0, 0).0, [7, 8, 9, 255]);
        assert_eq!(picture.get_pixel(1, 1).0, [4, 5, 6, 255]);
    }
}

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for State {
    fn event(
        _: &mut Self,
        _: &wl_registry::WlRegistry,
        _: wl_registry::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

impl Dispatch<wl_output::WlOutput, ()> for State {
    fn event(
        state: &mut Self,
        output: &wl_output::WlOutput,
        event: wl_output::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let Some((_, info)) = state.outputs.iter_mut().find(|(o, _)| o == output) else {
            return;
        };
        match event {
            wl_output::Event::Name { name } => info.name = name,
            wl_output::Event::Mode {
                flags: WEnum::Value(flags),
                width,
                height,
                ..
            } if flags.contains(wl_output::Mode::Current) => {
                info.width = width.max(0) as u32;
                info.height = height.max(0) as u32;
            }
            _ => {}
        }
    }
}

impl Dispatch<ZwlrScreencopyFrameV1, ()> for State {
    fn event(
        state: &mut Self,
        _: &ZwlrScreencopyFrameV1,
        event: zwlr_screencopy_frame_v1::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        use zwlr_screencopy_frame_v1::Event as E;
        let frame = &mut state.frame;
        match event {
            E::Buffer {
                format,
                width,
                height,
                stride,
            } => frame.buffer = Some((format, width, height, stride)),
            E::BufferDone => frame.buffer_done = true,
            E::Flags { flags } => {
                frame.y_invert = matches!(flags, WEnum::Value(f) if f.contains(zwlr_screencopy_frame_v1::Flags::YInvert));
            }
            E::Ready { .. } => frame.ready = true,
            E::Failed => frame.failed = true,
            _ => {}
        }
    }
}

delegate_noop!(State: ignore wl_seat::WlSeat);
delegate_noop!(State: ignore wl_shm::WlShm);
delegate_noop!(State: ignore wl_buffer::WlBuffer);
delegate_noop!(State: wl_shm_pool::WlShmPool);
delegate_noop!(State: ZwlrScreencopyManagerV1);
delegate_noop!(State: ZwlrVirtualPointerManagerV1);
delegate_noop!(State: ZwlrVirtualPointerV1);
delegate_noop!(State: ZwpVirtualKeyboardManagerV1);
delegate_noop!(State: ZwpVirtualKeyboardV1);
delegate_noop!(State: OrgKdeKwinFakeInput);

/// The Linux input event code of a key the bot presses (what virtual keyboards and
/// KWin's fake input take), on a US-like layout's digit row.
pub fn evdev_code(key: crate::input::Key) -> u32 {
    use crate::input::Key;
    match key {
        Key::Escape => 1,
        // KEY_1 is 2, ..., KEY_9 is 10.
        Key::Digit(d) => 1 + u32::from(d.clamp(1, 9)),
        Key::Backspace => 14,
        Key::Up => 103,
        Key::Left => 105,
        Key::Right => 106,
        Key::Down => 108,
        Key::Delete => 111,
    }
}

/// The keymap a virtual keyboard types with: the keys of [`evdev_code`] (XKB codes
/// are evdev codes plus 8) with the keysyms the bot means, whatever the user's layout
/// (a French layout's digit row gives digits only with Shift). Types and compatibility
/// come from the standard XKB data, as wtype does it.
const KEYMAP: &str = "xkb_keymap {
xkb_keycodes \"sudoku-bot\" {
  minimum = 8; maximum = 255;
  <ESC> = 9; <AE01> = 10; <AE02> = 11; <AE03> = 12; <AE04> = 13; <AE05> = 14;
  <AE06> = 15; <AE07> = 16; <AE08> = 17; <AE09> = 18; <BKSP> = 22;
  <UP> = 111; <LEFT> = 113; <RGHT> = 114; <DOWN> = 116; <DELE> = 119;
};
xkb_types \"sudoku-bot\" { include \"complete\" };
xkb_compat \"sudoku-bot\" { include \"complete\" };
xkb_symbols \"sudoku-bot\" {
  key <ESC> { [ Escape ] }; key <BKSP> { [ BackSpace ] }; key <DELE> { [ Delete ] };
  key <AE01> { [ 1 ] }; key <AE02> { [ 2 ] }; key <AE03> { [ 3 ] };
  key <AE04> { [ 4 ] }; key <AE05> { [ 5 ] }; key <AE06> { [ 6 ] };
  key <AE07> { [ 7 ] }; key <AE08> { [ 8 ] }; key <AE09> { [ 9 ] };
  key <UP> { [ Up ] }; key <LEFT> { [ Left ] }; key <RGHT> { [ Right ] }; key <DOWN> { [ Down ] };
};
};
";

/// [`KEYMAP`] in shared memory (NUL-terminated, as the protocol wants) and its size.
pub fn keymap() -> Result<(OwnedFd, u32), String> {
    let fd = rustix::fs::memfd_create("sudoku-bot-keymap", rustix::fs::MemfdFlags::CLOEXEC)
        .map_err(|e| format!("cannot create shared memory: {e}"))?;
    let mut file = std::fs::File::from(fd);
    file.write_all(KEYMAP.as_bytes())
        .and_then(|()| file.write_all(&[0]))
        .map_err(|e| format!("cannot write the keymap: {e}"))?;
    Ok((OwnedFd::from(file), KEYMAP.len() as u32 + 1))
}

/// BTN_LEFT.
pub const BUTTON_LEFT: u32 = 0x110;
