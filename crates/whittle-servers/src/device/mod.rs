//! One skeleton for every device server: the mobile, ui and log tools of the contract
//! (`whittle_contract`) are defined once, in `server`, over a [`DeviceBackend`].
//! The simulator (`crate::sim`) and a real device over adb (`crate::adb`) are its two
//! backends; injected faults are a third backend wrapped around another (`faulty`), and
//! evidence captures of both live in one registry (`capture`).
pub mod allowed_folders;
mod answer;
mod backend;
pub mod capture;
pub mod capture_log;
mod client_name;
mod descriptions;
pub mod fault;
mod faulty;
mod lab_session;
mod lease;
mod server;

pub use allowed_folders::AllowedFolders;
pub use answer::{ButtonAnswer, Launched, Screenshot, Terminated};
pub use backend::{DeviceBackend, Intercepted};
pub use capture::CaptureStartError;
pub use descriptions::ToolDescriptions;
pub use fault::{Fault, Faults};
pub use faulty::{FaultError, FaultyBackend};
pub use lab_session::LabHolds;
pub use lease::DEFAULT_LEASE_IDLE;
pub use server::{DeviceServeError, DeviceServer};
