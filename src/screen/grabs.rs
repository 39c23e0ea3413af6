//! Who holds the pointer or keyboard grab. The core protocol answers only "someone
//! does" (a grab attempt fails with AlreadyGrabbed); the X RECORD extension shows every
//! client's GrabPointer, GrabKeyboard and Ungrab requests with the server's answer and
//! the client that made them. A game may hold a grab of its own window for a moment
//! after a click (SDL 2 captures the mouse from a button press to its release, so
//! Kivy and pygame games do, and on a busy machine they take seconds to see the
//! release): that grab is the game's, not another program's.
//!
//! Only a grab seen made (the server said Success) and not let go since counts as a
//! client's; grabs that no request makes (a passive grab set off by a press, or one
//! made before the watch began) have no known holder, and neither has any grab when the
//! server has no RECORD: the caller then treats the grab as another program's.
//!
//! What was recorded up to a moment is known exactly: the watch also records its own
//! NoOperation requests, so [`GrabWatch::catch_up`] sends one and waits until the
//! reading thread has seen it (the server records in the order it runs requests).

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::record::{self, ConnectionExt as _};
use x11rb::protocol::xproto::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;

/// The two devices a client can grab.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Device {
    Keyboard,
    Pointer,
}

const GRAB_POINTER: u8 = 26;
const UNGRAB_POINTER: u8 = 27;
const GRAB_KEYBOARD: u8 = 31;
const UNGRAB_KEYBOARD: u8 = 32;
const NO_OPERATION: u8 = 127;
/// RECORD's categories of intercepted data.
const FROM_SERVER: u8 = 0;
const FROM_CLIENT: u8 = 1;
const CLIENT_DIED: u8 = 3;
const START_OF_DATA: u8 = 4;
const END_OF_DATA: u8 = 5;

/// What the recorded protocol says of each device's grab: the resource id base of the
/// client holding it, when one is known.
#[derive(Default, Debug)]
pub(super) struct Holders {
    pointer: Option<u32>,
    keyboard: Option<u32>,
    /// Grab requests sent and not answered yet, by client, oldest first.
    pending: Vec<(u32, Device)>,
    /// The client whose NoOperation requests are the watch's own marks, and how many
    /// of them were read.
    marker: u32,
    marks: u64,
    /// Counts the grabs seen made, so that a probe's "free" is not applied over a grab
    /// recorded after the probe began.
    made: u64,
}

impl Holders {
    fn slot(&mut self, device: Device) -> &mut Option<u32> {
        match device {
            Device::Keyboard => &mut self.keyboard,
            Device::Pointer => &mut self.pointer,
        }
    }

    /// The client holding `device`'s grab, if one is known.
    pub(super) fn holder(&self, device: Device) -> Option<u32> {
        match device {
            Device::Keyboard => self.keyboard,
            Device::Pointer => self.pointer,
        }
    }

    /// A probe found `device` free: whoever held it let go (also when no Ungrab said so:
    /// the grab window was unmapped).
    pub(super) fn free(&mut self, device: Device) {
        *self.slot(device) = None;
    }

    /// How many grabs were seen made so far.
    pub(super) fn made(&self) -> u64 {
        self.made
    }

    /// Takes in one reply of RECORD's EnableContext: `data` is the protocol of client
    /// `client` in `category`, one element after another.
    pub(super) fn take(&mut self, category: u8, client: u32, data: &[u8]) {
        match category {
            FROM_CLIENT => self.requests(client, data),
            FROM_SERVER => self.replies(client, data),
            CLIENT_DIED => {
                self.pending.retain(|&(c, _)| c != client);
                for d in [Device::Keyboard, Device::Pointer] {
                    if self.holder(d) == Some(client) {
                        self.free(d);
                    }
                }
            }
            _ => {}
        }
    }

    fn requests(&mut self, client: u32, mut data: &[u8]) {
        while data.len() >= 4 {
            let words = u16::from_le_bytes([data[2], data[3]]) as usize;
            // BIG-REQUESTS: a length of 0 is followed by the real one.
            let len = if words == 0 && data.len() >= 8 {
                u32::from_le_bytes([data[4], data[5], data[6], data[7]]) as usize * 4
            } else {
                words * 4
            };
            match data[0] {
                GRAB_POINTER => self.pending.push((client, Device::Pointer)),
                GRAB_KEYBOARD => self.pending.push((client, Device::Keyboard)),
                NO_OPERATION if client == self.marker => self.marks += 1,
                UNGRAB_POINTER | UNGRAB_KEYBOARD => {
                    let d = if data[0] == UNGRAB_POINTER {
                        Device::Pointer
                    } else {
                        Device::Keyboard
                    };
                    if self.holder(d) == Some(client) {
                        self.free(d);
                    }
                }
                _ => {}
            }
            if len < 4 || len > data.len() {
                break;
            }
            data = &data[len..];
        }
    }

    /// Replies to GrabPointer and GrabKeyboard (the only ones recorded): byte 1 is the
    /// status, 0 for Success; they come in the order of the client's requests.
    fn replies(&mut self, client: u32, mut data: &[u8]) {
        while data.len() >= 32 {
            let len = 32 + u32::from_le_bytes([data[4], data[5], data[6], data[7]]) as usize * 4;
            if data[0] == 1 {
                if let Some(at) = self.pending.iter().position(|&(c, _)| c == client) {
                    let (_, device) = self.pending.remove(at);
                    if data[1] == 0 {
                        *self.slot(device) = Some(client);
                        self.made += 1;
                    }
                }
            }
            if len > data.len() {
                break;
            }
            data = &data[len..];
        }
    }
}

/// What the reading thread shares: the holders, and a signal for each reply it took in.
type Shared = Arc<(Mutex<Holders>, Condvar)>;

/// A RECORD context that follows every client's grabs, read on a thread of its own.
pub(super) struct GrabWatch {
    control: RustConnection,
    context: u32,
    shared: Shared,
}

/// How long [`GrabWatch::start`] waits for the server to begin recording, and
/// [`GrabWatch::catch_up`] for its mark to be read: past it the watch still works, it
/// only may not have read the newest grabs yet.
const READ_PATIENCE: Duration = Duration::from_millis(500);

impl GrabWatch {
    /// Starts the watch on $DISPLAY and returns once the server records; `None` when
    /// the server has no RECORD (or refuses it).
    pub(super) fn start() -> Option<GrabWatch> {
        let (control, _) = x11rb::connect(None).ok()?;
        control
            .extension_information(record::X11_EXTENSION_NAME)
            .ok()??;
        control.record_query_version(1, 13).ok()?.reply().ok()?;
        let context = control.generate_id().ok()?;
        let none = record::Range8 { first: 0, last: 0 };
        let no_ext = record::ExtRange {
            major: none,
            minor: record::Range16 { first: 0, last: 0 },
        };
        let requests = |first, last| record::Range {
            core_requests: record::Range8 { first, last },
            core_replies: none,
            ext_requests: no_ext,
            ext_replies: no_ext,
            delivered_events: none,
            device_events: none,
            errors: none,
            client_started: false,
            client_died: false,
        };
        let grabs = record::Range {
            core_replies: record::Range8 {
                first: GRAB_POINTER,
                last: GRAB_KEYBOARD,
            },
            client_died: true,
            ..requests(GRAB_POINTER, UNGRAB_KEYBOARD)
        };
        let marks = requests(NO_OPERATION, NO_OPERATION);
        control
            .record_create_context(
                context,
                0,
                &[record::CS::ALL_CLIENTS.into()],
                &[grabs, marks],
            )
            .ok()?
            .check()
            .ok()?;
        let holders = Holders {
            marker: control.setup().resource_id_base,
            ..Holders::default()
        };
        let shared: Shared = Arc::new((Mutex::new(holders), Condvar::new()));
        let (started_tx, started) = std::sync::mpsc::channel();
        let (data, _) = x11rb::connect(None).ok()?;
        let reader = shared.clone();
        std::thread::Builder::new()
            .name("grab-watch".into())
            .spawn(move || {
                let Ok(replies) = data.record_enable_context(context) else {
                    return;
                };
                for reply in replies {
                    let Ok(reply) = reply else { return };
                    match reply.category {
                        START_OF_DATA => {
                            let _ = started_tx.send(());
                            continue;
                        }
                        END_OF_DATA => return,
                        _ if reply.client_swapped => continue,
                        _ => {}
                    }
                    let (holders, read) = &*reader;
                    if let Ok(mut h) = holders.lock() {
                        h.take(reply.category, reply.xid_base, &reply.data);
                    }
                    read.notify_all();
                }
            })
            .ok()?;
        // A thread that ended before the server began recording drops the sender: no
        // RECORD after all.
        if let Err(std::sync::mpsc::RecvTimeoutError::Disconnected) =
            started.recv_timeout(READ_PATIENCE)
        {
            return None;
        }
        Some(GrabWatch {
            control,
            context,
            shared,
        })
    }

    /// Waits until everything the server recorded up to now has been read: sends a
    /// mark and waits for the reading thread to see it (at most [`READ_PATIENCE`]).
    /// Not while another connection holds the server: the mark would wait for it.
    pub(super) fn catch_up(&self) {
        let (holders, read) = &*self.shared;
        let Ok(h) = holders.lock() else { return };
        let want = h.marks + 1;
        drop(h);
        if self.control.no_operation().is_err() || self.control.flush().is_err() {
            return;
        }
        let Ok(h) = holders.lock() else { return };
        let _ = read.wait_timeout_while(h, READ_PATIENCE, |h| h.marks < want);
    }

    fn holders(&self) -> Option<std::sync::MutexGuard<'_, Holders>> {
        self.shared.0.lock().ok()
    }

    pub(super) fn holder(&self, device: Device) -> Option<u32> {
        self.holders()?.holder(device)
    }

    /// How many grabs were seen made so far (read before a probe, for [`Self::free`]).
    pub(super) fn made(&self) -> u64 {
        self.holders().map_or(0, |h| h.made())
    }

    /// A probe that began when [`Self::made`] said `made` found `device` free: noted,
    /// unless a grab was seen made since (it may be newer than the probe).
    pub(super) fn free(&self, device: Device, made: u64) {
        if let Some(mut h) = self.holders() {
            if h.made() == made {
                h.free(device);
            }
        }
    }
}

impl Drop for GrabWatch {
    fn drop(&mut self) {
        let _ = self.control.record_disable_context(self.context);
        let _ = self.control.record_free_context(self.context);
        let _ = self.control.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(op: u8, words: u16) -> Vec<u8> {
        let mut r = vec![0u8; words as usize * 4];
        r[0] = op;
        r[2..4].copy_from_slice(&words.to_le_bytes());
        r
    }

    fn reply(status: u8) -> Vec<u8> {
        let mut r = vec![0u8; 32];
        r[0] = 1;
        r[1] = status;
        r
    }

    #[test]
    fn a_grab_is_held_by_the_client_whose_request_succeeded() {
        let mut h = Holders::default();
        let (game, other) = (0x0080_0000, 0x0120_0000);
        // Another client's probe fails (GrabNotViewable), the game's grab succeeds.
        h.take(FROM_CLIENT, other, &request(GRAB_POINTER, 6));
        h.take(FROM_CLIENT, game, &request(GRAB_POINTER, 6));
        h.take(FROM_SERVER, other, &reply(3));
        assert_eq!(h.holder(Device::Pointer), None);
        h.take(FROM_SERVER, game, &reply(0));
        assert_eq!(h.holder(Device::Pointer), Some(game));
        assert_eq!(h.holder(Device::Keyboard), None);
        // Another client's ungrab does not end the game's grab; the game's does.
        h.take(FROM_CLIENT, other, &request(UNGRAB_POINTER, 2));
        assert_eq!(h.holder(Device::Pointer), Some(game));
        let mut both = request(UNGRAB_POINTER, 2);
        both.extend(request(UNGRAB_KEYBOARD, 2));
        h.take(FROM_CLIENT, game, &both);
        assert_eq!(h.holder(Device::Pointer), None);
    }

    #[test]
    fn a_client_that_dies_holds_nothing() {
        let mut h = Holders::default();
        h.take(FROM_CLIENT, 7 << 21, &request(GRAB_KEYBOARD, 4));
        h.take(FROM_SERVER, 7 << 21, &reply(0));
        assert_eq!(h.holder(Device::Keyboard), Some(7 << 21));
        h.take(CLIENT_DIED, 7 << 21, &[]);
        assert_eq!(h.holder(Device::Keyboard), None);
    }

    #[test]
    fn only_the_watch_own_no_operations_are_marks_and_grabs_made_are_counted() {
        let mut h = Holders {
            marker: 3 << 21,
            ..Holders::default()
        };
        h.take(FROM_CLIENT, 5 << 21, &request(NO_OPERATION, 1));
        assert_eq!(h.marks, 0);
        let mut two = request(NO_OPERATION, 1);
        two.extend(request(GRAB_POINTER, 6));
        h.take(FROM_CLIENT, 3 << 21, &two);
        assert_eq!(h.marks, 1);
        assert_eq!(h.made(), 0);
        h.take(FROM_SERVER, 3 << 21, &reply(0));
        assert_eq!((h.made(), h.holder(Device::Pointer)), (1, Some(3 << 21)));
    }
}
