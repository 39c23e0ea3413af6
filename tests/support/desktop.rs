//! (e2e desktop: to be written)
