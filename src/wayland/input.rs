//! Input on GNOME Wayland through Mutter's RemoteDesktop session, with the pointer
//! (and so the user's hand on the mouse) seen in the ScreenCast stream's metadata.

use super::*;

/// The pause between the first motion into the game and the first button.
const FIRST_ENTER: Duration = Duration::from_millis(50);

/// How many of the bot's own pointer positions are remembered. Mutter reports the
/// pointer with the frames it renders, a few frames late while the bot moves fast, so a
/// report may name any of the last dozens of cells the bot clicked; a user's hand
/// lands within 2 pixels of one of those cell centres by chance only.
const OURS_KEPT: usize = 96;

/// Input through Mutter's RemoteDesktop session, the pointer seen in the stream.
pub struct GnomeInput {
    session: Rc<MutterSession>,
    frames: Rc<Frames>,
    /// Where the pointer was when the bot started, and the last places the bot put it:
    /// a pointer seen anywhere else was moved by someone else.
    ours: VecDeque<ScreenPoint>,
    /// Where Mutter last said the pointer was when the bot last moved it.
    reported_at_move: Option<(i32, i32)>,
    /// False until the first click.
    pointer_entered: bool,
    /// True once Mutter has said where the pointer rested before the bot moved it.
    rest_known: bool,
}

impl GnomeInput {
    pub(super) fn new(session: Rc<MutterSession>, frames: Rc<Frames>) -> GnomeInput {
        // Where the pointer rests now is nobody's move.
        let mut ours: VecDeque<ScreenPoint> = frames
            .take_pointer_moves()
            .into_iter()
            .chain(frames.pointer())
            .map(|(x, y)| ScreenPoint { x, y })
            .collect();
        while ours.len() > OURS_KEPT {
            ours.pop_front();
        }
        GnomeInput {
            session,
            frames,
            rest_known: !ours.is_empty(),
            ours,
            reported_at_move: None,
            pointer_entered: false,
        }
    }

    pub(super) fn is_ours(&self, x: i32, y: i32) -> bool {
        self.ours
            .iter()
            .any(|p| (p.x - x).abs() <= 2 && (p.y - y).abs() <= 2)
    }
}

impl Input for GnomeInput {
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        self.ours.push_back(at);
        while self.ours.len() > OURS_KEPT {
            self.ours.pop_front();
        }
        self.reported_at_move = self.frames.pointer();
        self.session.pointer_to(at.x as f64, at.y as f64)?;
        if !self.pointer_entered {
            // The first motion makes the pointer enter the game's surface; a button
            // sent with it was lost under headless Mutter 43 (the first cell did not
            // take), so the first click waits for the enter to reach the game.
            std::thread::sleep(FIRST_ENTER);
            self.pointer_entered = true;
        }
        self.session.left_click()
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        self.session.key(key)
    }

    /// The pointer from the stream's cursor metadata. Mutter reports a move with the
    /// next frame it renders (tens of milliseconds later under a software renderer), so
    /// while its report has not changed since the bot moved the pointer, the pointer is
    /// where the bot put it; any other report (the user's hand) is returned as it is.
    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        let reported = self.frames.pointer();
        let ours = self.ours.back().copied();
        match (reported, ours) {
            (Some(_), Some(target)) if reported == self.reported_at_move => Ok(target),
            (Some((x, y)), _) => Ok(ScreenPoint { x, y }),
            (None, Some(target)) => Ok(target),
            (None, None) => Ok(ScreenPoint { x: -1, y: -1 }),
        }
    }

    /// Wayland does not let one client read the keyboard's state: always false.
    fn keys_held(&mut self) -> Result<bool, InputError> {
        Ok(false)
    }

    /// The pointer seen where the bot never put it. Keys, buttons and the wheel of the
    /// user are not visible to another Wayland client.
    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        let mut moves = self.frames.take_pointer_moves();
        if !self.rest_known && !moves.is_empty() {
            self.rest_known = true;
            // Mutter's first report (it had sent none when the bot started) is where
            // the pointer rested before the bot: a stale frame may still show it.
            let (x, y) = moves.remove(0);
            self.ours.push_front(ScreenPoint { x, y });
        }
        let theirs = moves.iter().find(|&&(x, y)| !self.is_ours(x, y)).copied();
        if let Some((x, y)) = theirs {
            // From now on, that position is where the pointer rests.
            self.ours.push_back(ScreenPoint { x, y });
            return Ok(Some(format!("the mouse moved (to ({x},{y}))")));
        }
        Ok(None)
    }
}
