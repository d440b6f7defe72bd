//! The window's runs: the application API's [`whittle_service::api::Runs`], holding the
//! live run's task as Tauri spawned it.

pub use whittle_service::api::FinishedRun;

pub type WindowRuns = whittle_service::api::Runs<tauri::async_runtime::JoinHandle<()>>;
