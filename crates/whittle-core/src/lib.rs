//! Whittle's pure core. Nothing here performs I/O except the explicitly named
//! workspace readers; the reduction engine has no I/O, no clock and no randomness.

pub mod contract;
pub mod model;
