//! How loud each program's logs may be, whatever `RUST_LOG` asks: a privacy rule every
//! front end and server applies (docs/SECURITY.md §3).
//!
//! Below `warn`, dependencies write what passes through them: rmcp logs every JSON-RPC
//! message whole at debug and trace (an import's private values, a replay's typed text),
//! and the HTTP stack (reqwest, hyper, h2) headers and bodies, bearer tokens included.
//! So every target that is not Whittle's own stops at `warn` — a dependency added later
//! included, rather than a list of the known noisy ones that a new one would slip past.
//! Whittle's own targets (`whittle`, `whittle_core`, `whittle_service`, …) log as
//! `RUST_LOG` asks; what they log holds no private value (`redact.rs`).
//!
//! It is applied as a filter of its own beside the `RUST_LOG` filter, never as
//! directives appended to it: `tracing_subscriber::EnvFilter` lets its most specific
//! directive win, so an appended `rmcp=warn` still loses to a user's
//! `rmcp::service=trace` and to a span directive (`[replay]=trace`), which enables every
//! target inside that span.

/// The ceiling as `tracing_subscriber::filter::Targets` directives: every target at
/// `warn`, Whittle's own (every target starting `whittle`) at whatever `RUST_LOG` allows.
pub const LOG_CEILING: &str = "warn,whittle=trace";
