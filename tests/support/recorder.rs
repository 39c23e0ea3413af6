//! A window that records every key and button press it receives, for end-to-end tests
//! of where the bot's input goes: put one behind the game, beside it, or over it as an
//! override-redirect popup (what notification bubbles and menus are), and assert that
//! it received nothing. It can also take the keyboard focus, once or over and over like
//! a misbehaving app.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    AtomEnum, ConnectionExt, CreateWindowAux, EventMask, InputFocus, PropMode, WindowClass,
};
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// Where a recorder window goes and how it behaves.
pub struct Spec<'a> {
    pub title: &'a str,
    /// x, y, width, height in screen pixels.
    pub rect: (i16, i16, u16, u16),
    /// Not managed by the window manager, stacked over everything (a notification).
    pub override_redirect: bool,
    /// An InputOnly window: shows nothing, takes input (xtrlock's, a transparent
    /// click catcher).
    pub input_only: bool,
}

impl Default for Spec<'_> {
    fn default() -> Self {
        Spec {
            title: "Recorder",
            rect: (0, 0, 100, 100),
            override_redirect: true,
            input_only: false,
        }
    }
}

pub struct Recorder {
    conn: Arc<RustConnection>,
    pub window: u32,
    events: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Recorder {
    /// Opens and maps the window on `display` and starts recording.
    pub fn open(display: &str, spec: Spec) -> Recorder {
        let (conn, screen) = x11rb::connect(Some(display)).expect("connect to the test display");
        let conn = Arc::new(conn);
        let root = conn.setup().roots[screen].root;
        let window = conn.generate_id().expect("window id");
        let (x, y, w, h) = spec.rect;
        let aux = CreateWindowAux::new()
            .override_redirect(u32::from(spec.override_redirect))
            .event_mask(EventMask::KEY_PRESS | EventMask::BUTTON_PRESS);
        let (class, depth, aux) = if spec.input_only {
            (WindowClass::INPUT_ONLY, 0, aux)
        } else {
            (
                WindowClass::INPUT_OUTPUT,
                x11rb::COPY_DEPTH_FROM_PARENT,
                aux.background_pixel(0x00c0_4080),
            )
        };
        conn.create_window(depth, window, root, x, y, w, h, 0, class, 0, &aux)
            .expect("create window");
        conn.change_property8(
            PropMode::REPLACE,
            window,
            AtomEnum::WM_NAME,
            AtomEnum::STRING,
            spec.title.as_bytes(),
        )
        .expect("title");
        conn.map_window(window).expect("map");
        conn.flush().expect("flush");
        let events = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (conn, events, stop) = (conn.clone(), events.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match conn.poll_for_event() {
                        Ok(Some(Event::KeyPress(e))) => {
                            events.lock().unwrap().push(format!("key {}", e.detail))
                        }
                        Ok(Some(Event::ButtonPress(e))) => events.lock().unwrap().push(format!(
                            "button {} at ({},{})",
                            e.detail, e.root_x, e.root_y
                        )),
                        Ok(Some(_)) => {}
                        Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                        Err(_) => break,
                    }
                }
            })
        };
        Recorder {
            conn,
            window,
            events,
            stop,
            threads: vec![thread],
        }
    }

    /// Every key and button press received so far.
    pub fn events(&self) -> Vec<String> {
        self.events.lock().unwrap().clone()
    }

    /// Takes the keyboard focus every 5 ms for `how_long`, as an app that keeps
    /// grabbing it would (a click on another window does not keep it away).
    pub fn keep_taking_focus(&mut self, how_long: Duration) {
        self.flicker_focus(None, Duration::from_millis(5), how_long);
    }

    /// Takes the keyboard focus for `held` of every 12 ms for `how_long`, giving it
    /// back to `back` (the game) in between, when given.
    pub fn flicker_focus(&mut self, back: Option<u32>, held: Duration, how_long: Duration) {
        let (conn, window) = (self.conn.clone(), self.window);
        let stop = self.stop.clone();
        self.threads.push(std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < how_long && !stop.load(Ordering::Relaxed) {
                let _ = conn.set_input_focus(InputFocus::PARENT, window, x11rb::CURRENT_TIME);
                let _ = conn.flush();
                std::thread::sleep(held);
                if let Some(game) = back {
                    let _ = conn.set_input_focus(InputFocus::PARENT, game, x11rb::CURRENT_TIME);
                    let _ = conn.flush();
                    std::thread::sleep(Duration::from_millis(12).saturating_sub(held));
                }
            }
        }));
    }

    /// Asks the window manager to activate the window, as a taskbar or pager does
    /// (`_NET_ACTIVE_WINDOW`, source 2): openbox honours it whatever the user is doing,
    /// where its focus-stealing prevention may leave a window that merely maps
    /// unfocused while the user types elsewhere.
    pub fn ask_to_be_activated(&self) {
        use x11rb::protocol::xproto::ClientMessageEvent;
        let atom = self.atom(b"_NET_ACTIVE_WINDOW");
        let root = self.conn.setup().roots[0].root;
        let event = ClientMessageEvent::new(32, self.window, atom, [2u32, 0, 0, 0, 0]);
        self.conn
            .send_event(
                false,
                root,
                EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
                event,
            )
            .expect("activate");
        self.conn.flush().expect("flush");
    }

    /// The atom of `name`.
    fn atom(&self, name: &[u8]) -> u32 {
        self.conn
            .intern_atom(false, name)
            .expect("atom")
            .reply()
            .expect("atom")
            .atom
    }

    /// Takes the keyboard focus once.
    pub fn take_focus(&self) {
        self.conn
            .set_input_focus(InputFocus::PARENT, self.window, x11rb::CURRENT_TIME)
            .expect("focus");
        self.conn.flush().expect("flush");
    }

    /// Gives the keyboard focus to the window manager's own window (the root's
    /// `_NET_SUPPORTING_WM_CHECK`), as openbox does when no window is left to focus.
    pub fn give_focus_to_window_manager(&self) {
        let root = self.conn.setup().roots[0].root;
        let atom = self
            .conn
            .intern_atom(false, b"_NET_SUPPORTING_WM_CHECK")
            .expect("atom")
            .reply()
            .expect("atom")
            .atom;
        let wm = self
            .conn
            .get_property(false, root, atom, AtomEnum::WINDOW, 0, 1)
            .expect("property")
            .reply()
            .expect("property")
            .value32()
            .and_then(|mut v| v.next())
            .expect("a window manager that names its check window");
        self.conn
            .set_input_focus(InputFocus::POINTER_ROOT, wm, x11rb::CURRENT_TIME)
            .expect("focus");
        self.conn.flush().expect("flush");
        self.sync();
    }

    /// Takes the window off the screen (as a switch to another workspace does), or
    /// puts it back.
    pub fn set_mapped(&self, mapped: bool) {
        if mapped {
            self.conn.map_window(self.window).expect("map");
        } else {
            self.conn.unmap_window(self.window).expect("unmap");
        }
        self.conn.flush().expect("flush");
        self.sync();
    }

    /// Grabs the keyboard, the pointer or both for this window, as a menu, a launcher
    /// or a screen locker does: input then goes here wherever the focus and the
    /// pointer are. Retries for up to a second while someone else holds the device.
    pub fn grab(&self, keyboard: bool, pointer: bool) {
        use x11rb::protocol::xproto::{GrabMode, GrabStatus};
        let start = Instant::now();
        let mut ok = (!keyboard, !pointer);
        while !(ok.0 && ok.1) && start.elapsed() < Duration::from_secs(1) {
            if !ok.0 {
                ok.0 = self
                    .conn
                    .grab_keyboard(
                        false,
                        self.window,
                        x11rb::CURRENT_TIME,
                        GrabMode::ASYNC,
                        GrabMode::ASYNC,
                    )
                    .ok()
                    .and_then(|c| c.reply().ok())
                    .is_some_and(|r| r.status == GrabStatus::SUCCESS);
            }
            if !ok.1 {
                ok.1 = self
                    .conn
                    .grab_pointer(
                        false,
                        self.window,
                        EventMask::BUTTON_PRESS,
                        GrabMode::ASYNC,
                        GrabMode::ASYNC,
                        x11rb::NONE,
                        x11rb::NONE,
                        x11rb::CURRENT_TIME,
                    )
                    .ok()
                    .and_then(|c| c.reply().ok())
                    .is_some_and(|r| r.status == GrabStatus::SUCCESS);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(
            ok.0 && ok.1,
            "the recorder could not grab (keyboard, pointer): {ok:?}"
        );
    }

    /// Grabs the pointer for this window now, as an SDL 2 game does from a button press
    /// to its release, and lets go of it `how_long` later (on a thread of its own).
    pub fn hold_pointer_grab(&mut self, how_long: Duration) {
        self.grab(false, true);
        let conn = self.conn.clone();
        self.threads.push(std::thread::spawn(move || {
            std::thread::sleep(how_long);
            let _ = conn.ungrab_pointer(x11rb::CURRENT_TIME);
            let _ = conn.flush();
        }));
    }

    /// Moves the window into `parent` (another client's window, the game's) at (x, y).
    pub fn reparent_into(&self, parent: u32, x: i16, y: i16) {
        self.conn
            .reparent_window(self.window, parent, x, y)
            .expect("reparent");
        self.conn.map_window(self.window).expect("map");
        self.conn.flush().expect("flush");
        self.sync();
    }

    /// Waits until the server has done every request sent so far.
    pub fn sync(&self) {
        let _ = self.conn.get_input_focus().map(|c| c.reply());
    }

    /// Shows `picture` in the window (as its background, so the server redraws it).
    pub fn show_picture(&self, picture: &image::RgbaImage) {
        use x11rb::protocol::xproto::{ChangeWindowAttributesAux, ImageFormat};
        let conn = &self.conn;
        let screen = &conn.setup().roots[0];
        let (w, h) = (picture.width() as u16, picture.height() as u16);
        let pixmap = conn.generate_id().expect("id");
        conn.create_pixmap(screen.root_depth, pixmap, self.window, w, h)
            .expect("pixmap");
        let gc = conn.generate_id().expect("id");
        conn.create_gc(gc, pixmap, &Default::default()).expect("gc");
        let bgrx: Vec<u8> = picture
            .pixels()
            .flat_map(|p| [p[2], p[1], p[0], 0])
            .collect();
        let row = usize::from(w) * 4;
        for (i, strip) in bgrx.chunks(row * 32).enumerate() {
            let rows = (strip.len() / row) as u16;
            conn.put_image(
                ImageFormat::Z_PIXMAP,
                pixmap,
                gc,
                w,
                rows,
                0,
                (i * 32) as i16,
                0,
                screen.root_depth,
                strip,
            )
            .expect("put image");
        }
        conn.change_window_attributes(
            self.window,
            &ChangeWindowAttributesAux::new().background_pixmap(pixmap),
        )
        .expect("background");
        conn.clear_area(false, self.window, 0, 0, 0, 0)
            .expect("clear");
        conn.flush().expect("flush");
        self.sync();
    }

    /// Says the window belongs to another program: its WM_CLASS and `_NET_WM_PID`,
    /// which any program may set to anything.
    pub fn pose_as(&self, class: &str, pid: Option<u32>) {
        let class = format!("{}\0{class}\0", class.to_lowercase());
        self.conn
            .change_property8(
                PropMode::REPLACE,
                self.window,
                AtomEnum::WM_CLASS,
                AtomEnum::STRING,
                class.as_bytes(),
            )
            .expect("class");
        if let Some(pid) = pid {
            let atom = self.atom(b"_NET_WM_PID");
            self.conn
                .change_property32(
                    PropMode::REPLACE,
                    self.window,
                    atom,
                    AtomEnum::CARDINAL,
                    &[pid],
                )
                .expect("pid");
        }
        self.conn.flush().expect("flush");
    }

    /// Forgets what was recorded so far (after a self-check).
    pub fn clear(&self) {
        self.events.lock().unwrap().clear();
    }

    /// Puts the window at the bottom of the stack, under every other window.
    pub fn lower(&self) {
        use x11rb::protocol::xproto::{ConfigureWindowAux, StackMode};
        self.conn
            .configure_window(
                self.window,
                &ConfigureWindowAux::new().stack_mode(StackMode::BELOW),
            )
            .expect("lower");
        self.conn.flush().expect("flush");
    }

    /// Removes the window from the screen (the recording stops).
    pub fn close(mut self) -> Vec<String> {
        let _ = self.conn.destroy_window(self.window);
        let _ = self.conn.flush();
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        self.events()
    }
}
