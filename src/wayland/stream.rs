//! Frames and the pointer from Mutter's PipeWire stream.
//!
//! A thread runs PipeWire's main loop for one stream: raw video in a 32-bit RGB format
//! (Mutter sends BGRx), mapped shared-memory buffers, and the cursor as metadata
//! (`SPA_META_Cursor`: the pointer's position in the stream's pixels). Mutter sends a
//! frame when the screen changes, and a frame with only the cursor metadata when the
//! pointer moves, so the newest frame is always the screen as it is now.
//!
//! The thread keeps the newest frame's bytes as they came (converted only when the bot
//! asks for a picture) and every pointer position seen since the bot last asked.

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use image::RgbaImage;
use pipewire as pw;
use pw::spa;
use spa::param::video::VideoFormat;
use spa::pod::{ChoiceValue, Object, Pod, Property, PropertyFlags, Value};
use spa::utils::{Choice, ChoiceEnum, ChoiceFlags, Id};

/// The newest frame as it arrived.
struct RawFrame {
    width: u32,
    height: u32,
    stride: usize,
    /// Blue first (BGRx, BGRA) or red first (RGBx, RGBA).
    blue_first: bool,
    bytes: Vec<u8>,
}

#[derive(Default)]
struct Shared {
    frame: Option<RawFrame>,
    /// Frames received so far.
    frames: u64,
    /// The pointer's newest position, stream pixels, once Mutter has said.
    pointer: Option<(i32, i32)>,
    /// Positions seen since [`Frames::take_pointer_moves`] last ran (at most 64 kept).
    moves: Vec<(i32, i32)>,
    /// Why the stream failed, when it did.
    error: Option<String>,
}

/// The stream's frames, received on a thread of their own. Stops the thread on drop.
pub struct Frames {
    shared: Arc<(Mutex<Shared>, Condvar)>,
    quit: pw::channel::Sender<()>,
    thread: Option<JoinHandle<()>>,
}

impl Frames {
    /// Connects to PipeWire node `node` (Mutter's stream) and starts receiving.
    pub fn connect(node: u32) -> Result<Frames, String> {
        let shared: Arc<(Mutex<Shared>, Condvar)> = Arc::default();
        let (quit, quit_rx) = pw::channel::channel::<()>();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
        let for_thread = shared.clone();
        let thread = std::thread::Builder::new()
            .name("pipewire".into())
            .spawn(move || {
                if let Err(e) = run(node, for_thread.clone(), quit_rx, &ready_tx) {
                    let _ = ready_tx.send(Err(e.clone()));
                    let (lock, wake) = &*for_thread;
                    lock.lock().unwrap_or_else(|p| p.into_inner()).error = Some(e);
                    wake.notify_all();
                }
            })
            .map_err(|e| format!("cannot start the PipeWire thread: {e}"))?;
        match ready_rx.recv_timeout(Duration::from_secs(5)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e),
            Err(_) => return Err("PipeWire did not answer within 5 s".into()),
        }
        Ok(Frames {
            shared,
            quit,
            thread: Some(thread),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The newest frame as an RGBA picture, waiting up to `patience` for the first one.
    pub fn latest(&self, patience: Duration) -> Result<RgbaImage, String> {
        let start = Instant::now();
        let (_, wake) = &*self.shared;
        let mut shared = self.lock();
        loop {
            if let Some(e) = &shared.error {
                return Err(e.clone());
            }
            if let Some(frame) = &shared.frame {
                return Ok(to_rgba(frame));
            }
            let left = patience.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(format!(
                    "no frame came from Mutter's stream within {} ms",
                    patience.as_millis()
                ));
            }
            shared = wake
                .wait_timeout(shared, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// The newest frame's size, without converting it.
    pub fn size(&self) -> Option<(u32, u32)> {
        self.lock().frame.as_ref().map(|f| (f.width, f.height))
    }

    /// How many frames have arrived (tests and logs).
    pub fn count(&self) -> u64 {
        self.lock().frames
    }

    /// The pointer's newest position in stream pixels, `None` until Mutter sent one.
    pub fn pointer(&self) -> Option<(i32, i32)> {
        self.lock().pointer
    }

    /// Every pointer position seen since the last call, oldest first.
    pub fn take_pointer_moves(&self) -> Vec<(i32, i32)> {
        std::mem::take(&mut self.lock().moves)
    }
}

impl Drop for Frames {
    fn drop(&mut self) {
        let _ = self.quit.send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn to_rgba(frame: &RawFrame) -> RgbaImage {
    let (w, h) = (frame.width as usize, frame.height as usize);
    let mut out = Vec::with_capacity(w * h * 4);
    for row in frame.bytes.chunks(frame.stride).take(h) {
        for px in row[..w * 4].chunks_exact(4) {
            if frame.blue_first {
                out.extend_from_slice(&[px[2], px[1], px[0], 255]);
            } else {
                out.extend_from_slice(&[px[0], px[1], px[2], 255]);
            }
        }
    }
    RgbaImage::from_raw(frame.width, frame.height, out).unwrap_or_default()
}

fn serialize(object: Object) -> Result<Vec<u8>, String> {
    pw::spa::pod::serialize::PodSerializer::serialize(
        std::io::Cursor::new(Vec::new()),
        &Value::Object(object),
    )
    .map(|(cursor, _)| cursor.into_inner())
    .map_err(|e| format!("cannot build a PipeWire parameter: {e:?}"))
}

fn property(key: u32, value: Value) -> Property {
    Property {
        key,
        flags: PropertyFlags::empty(),
        value,
    }
}

/// What the bot accepts: raw video in a 32-bit RGB order, any size and rate.
fn format_param() -> Result<Vec<u8>, String> {
    let formats = [
        VideoFormat::BGRx,
        VideoFormat::BGRA,
        VideoFormat::RGBx,
        VideoFormat::RGBA,
    ];
    serialize(Object {
        type_: spa::sys::SPA_TYPE_OBJECT_Format,
        id: spa::sys::SPA_PARAM_EnumFormat,
        properties: vec![
            property(
                spa::sys::SPA_FORMAT_mediaType,
                Value::Id(Id(spa::sys::SPA_MEDIA_TYPE_video)),
            ),
            property(
                spa::sys::SPA_FORMAT_mediaSubtype,
                Value::Id(Id(spa::sys::SPA_MEDIA_SUBTYPE_raw)),
            ),
            property(
                spa::sys::SPA_FORMAT_VIDEO_format,
                Value::Choice(ChoiceValue::Id(Choice(
                    ChoiceFlags::empty(),
                    ChoiceEnum::Enum {
                        default: Id(formats[0].as_raw()),
                        alternatives: formats.iter().map(|f| Id(f.as_raw())).collect(),
                    },
                ))),
            ),
        ],
    })
}

/// Asks for the cursor as metadata (room for a bitmap up to 64x64, which the bot does
/// not read; Mutter wants the room) and for buffers in shared memory.
fn meta_and_buffer_params() -> Result<Vec<Vec<u8>>, String> {
    let cursor_size = |side: i32| {
        (std::mem::size_of::<spa::sys::spa_meta_cursor>()
            + std::mem::size_of::<spa::sys::spa_meta_bitmap>()) as i32
            + side * side * 4
    };
    let meta = serialize(Object {
        type_: spa::sys::SPA_TYPE_OBJECT_ParamMeta,
        id: spa::sys::SPA_PARAM_Meta,
        properties: vec![
            property(
                spa::sys::SPA_PARAM_META_type,
                Value::Id(Id(spa::sys::SPA_META_Cursor)),
            ),
            property(
                spa::sys::SPA_PARAM_META_size,
                Value::Choice(ChoiceValue::Int(Choice(
                    ChoiceFlags::empty(),
                    ChoiceEnum::Range {
                        default: cursor_size(64),
                        min: cursor_size(1),
                        max: cursor_size(512),
                    },
                ))),
            ),
        ],
    })?;
    let shm = (1 << spa::sys::SPA_DATA_MemFd) | (1 << spa::sys::SPA_DATA_MemPtr);
    let buffers = serialize(Object {
        type_: spa::sys::SPA_TYPE_OBJECT_ParamBuffers,
        id: spa::sys::SPA_PARAM_Buffers,
        properties: vec![property(
            spa::sys::SPA_PARAM_BUFFERS_dataType,
            Value::Choice(ChoiceValue::Int(Choice(
                ChoiceFlags::empty(),
                ChoiceEnum::Flags {
                    default: shm,
                    flags: vec![shm],
                },
            ))),
        )],
    })?;
    Ok(vec![meta, buffers])
}

/// The negotiated format, kept by the stream's listener.
#[derive(Default)]
struct Negotiated {
    width: u32,
    height: u32,
    blue_first: bool,
    /// The memory of the frame before the newest, for the next copy.
    spare: Vec<u8>,
}

/// The PipeWire thread: connect, negotiate, then receive until told to quit.
fn run(
    node: u32,
    shared: Arc<(Mutex<Shared>, Condvar)>,
    quit: pw::channel::Receiver<()>,
    ready: &std::sync::mpsc::Sender<Result<(), String>>,
) -> Result<(), String> {
    let pw_error = |what: &str, e: pw::Error| format!("PipeWire: {what}: {e}");
    pw::init();
    let mainloop = pw::main_loop::MainLoopRc::new(None).map_err(|e| pw_error("no main loop", e))?;
    let context =
        pw::context::ContextRc::new(&mainloop, None).map_err(|e| pw_error("no context", e))?;
    let core = context
        .connect_rc(None)
        .map_err(|e| pw_error("cannot reach the PipeWire daemon (is pipewire running?)", e))?;
    let stream = pw::stream::StreamBox::new(
        &core,
        "sudoku-bot",
        pw::properties::properties! {
            *pw::keys::MEDIA_TYPE => "Video",
            *pw::keys::MEDIA_CATEGORY => "Capture",
            *pw::keys::MEDIA_ROLE => "Screen",
        },
    )
    .map_err(|e| pw_error("cannot create a stream", e))?;

    let extra = meta_and_buffer_params()?;
    let on_error = shared.clone();
    let on_frame = shared.clone();
    let _listener = stream
        .add_local_listener_with_user_data(Negotiated::default())
        .state_changed(move |_, _, _, new| {
            if let pw::stream::StreamState::Error(e) = new {
                let (lock, wake) = &*on_error;
                lock.lock().unwrap_or_else(|p| p.into_inner()).error =
                    Some(format!("PipeWire stream failed: {e}"));
                wake.notify_all();
            }
        })
        .param_changed(move |stream, format, id, param| {
            let Some(param) = param else { return };
            if id != spa::param::ParamType::Format.as_raw() {
                return;
            }
            let mut info = spa::param::video::VideoInfoRaw::default();
            if info.parse(param).is_err() {
                return;
            }
            format.width = info.size().width;
            format.height = info.size().height;
            format.blue_first = matches!(info.format(), VideoFormat::BGRx | VideoFormat::BGRA);
            let mut pods: Vec<&Pod> = extra.iter().filter_map(|b| Pod::from_bytes(b)).collect();
            let _ = stream.update_params(&mut pods);
        })
        .process(move |stream, format| take_frame(stream, format, &on_frame))
        .register()
        .map_err(|e| pw_error("cannot listen to the stream", e))?;

    let format = format_param()?;
    let mut params = [Pod::from_bytes(&format).ok_or("bad format parameter")?];
    stream
        .connect(
            spa::utils::Direction::Input,
            Some(node),
            pw::stream::StreamFlags::AUTOCONNECT | pw::stream::StreamFlags::MAP_BUFFERS,
            &mut params,
        )
        .map_err(|e| pw_error("cannot connect to Mutter's stream", e))?;
    let _ = ready.send(Ok(()));
    let quitter = mainloop.clone();
    let _quit = quit.attach(mainloop.loop_(), move |_| quitter.quit());
    mainloop.run();
    Ok(())
}

/// Takes the stream's newest buffer: the frame copied out (into the memory of the one
/// before), and the pointer from the cursor metadata, for the reading side.
fn take_frame(
    stream: &pw::stream::Stream,
    format: &mut Negotiated,
    on_frame: &(Mutex<Shared>, Condvar),
) {
    let Some(mut buffer) = stream.dequeue_buffer() else {
        return;
    };
    let cursor = buffer
        .find_meta::<spa::buffer::meta::MetaCursor>()
        .filter(|c| c.is_valid())
        .map(|c| (c.position().x, c.position().y));
    let mut frame = None;
    if let Some(data) = buffer.datas_mut().first_mut() {
        let (offset, size, stride) = (
            data.chunk().offset() as usize,
            data.chunk().size() as usize,
            data.chunk().stride(),
        );
        let stride = if stride > 0 {
            stride as usize
        } else {
            format.width as usize * 4
        };
        let need = stride * format.height as usize;
        if let Some(bytes) = data.data() {
            if size >= need && format.width > 0 && offset + need <= bytes.len() {
                // The previous frame's memory is reused (5 MB at 1280x1024).
                let mut copy = std::mem::take(&mut format.spare);
                copy.clear();
                copy.extend_from_slice(&bytes[offset..offset + need]);
                frame = Some(RawFrame {
                    width: format.width,
                    height: format.height,
                    stride,
                    blue_first: format.blue_first,
                    bytes: copy,
                });
            }
        }
    }
    let (lock, wake) = on_frame;
    let mut shared = lock.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(at) = cursor {
        shared.pointer = Some(at);
        if shared.moves.last() != Some(&at) && shared.moves.len() < 64 {
            shared.moves.push(at);
        }
    }
    if let Some(frame) = frame {
        if let Some(old) = shared.frame.replace(frame) {
            format.spare = old.bytes;
        }
        shared.frames += 1;
    }
    wake.notify_all();
}
