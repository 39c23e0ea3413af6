//! The bot's clock: every wait, time-out, pause between inputs and measured latency in
//! the bot reads the time and sleeps through a [`Clock`]. The real one
//! ([`RealClock`], the default) is the system's; a simulation gives the bot a clock of
//! its own whose sleeps advance its time at once, so that what the bot does does not
//! depend on how fast the machine runs ([`Bot::with_clock`](super::Bot::with_clock)).

use std::time::{Duration, Instant};

/// Where the bot gets the time and how it waits.
pub trait Clock: Send + Sync {
    /// The time now.
    fn now(&self) -> Instant;
    /// Waits `duration`.
    fn sleep(&self, duration: Duration);
    /// The time passed since `then` (zero when `then` is later).
    fn since(&self, then: Instant) -> Duration {
        self.now().saturating_duration_since(then)
    }
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealClock;

impl Clock for RealClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}
