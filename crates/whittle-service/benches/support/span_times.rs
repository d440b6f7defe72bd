//! Where a run's wall-clock time goes, from the spans the product itself opens (`replay`,
//! `archive_screenshot`, `journal_append`, …): a `tracing` layer that adds up each span's
//! lifetime, from its creation to its close, by name. For an instrumented future that is
//! the time from the call to the answer, waits included — what a replay waits for.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tracing::span::{Attributes, Id};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

/// Per span name: how many closed, and their summed lifetime.
#[derive(Clone, Default)]
pub struct SpanTimes(Arc<Mutex<BTreeMap<&'static str, (u32, Duration)>>>);

struct Opened(Instant);

impl SpanTimes {
    /// Installs the layer for the whole process (every runtime thread reports to it).
    pub fn install() -> SpanTimes {
        use tracing_subscriber::prelude::*;
        let times = SpanTimes::default();
        tracing_subscriber::registry()
            .with(times.clone())
            .try_init()
            .expect("no other subscriber in a bench");
        times
    }

    /// Forgets what was added so far.
    pub fn reset(&self) {
        self.0.lock().unwrap().clear();
    }

    /// What was added since the last reset, by span name.
    pub fn take(&self) -> BTreeMap<&'static str, (u32, Duration)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for SpanTimes {
    fn on_new_span(&self, _: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(Opened(Instant::now()));
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let Some(opened) = span.extensions().get::<Opened>().map(|o| o.0) else {
            return;
        };
        let mut times = self.0.lock().unwrap();
        let entry = times.entry(span.name()).or_default();
        entry.0 += 1;
        entry.1 += opened.elapsed();
    }
}
