//! Runs a parser on a thread with the stack of a tokio worker (2 MiB), where `whittle
//! mcp` parses what it is given: libFuzzer's own thread has 8 MiB, on which recursion a
//! deep input drives would go unnoticed until it aborted `whittle mcp`. Here it aborts
//! the fuzzer, a finding (docs/SECURITY.md §11).

pub const WORKER_STACK: usize = 2 * 1024 * 1024;

/// `parse()` on a worker-sized stack; a panic in it is re-raised here.
pub fn on_worker_stack<T: Send>(parse: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, parse)
            .expect("a thread for the parser");
        match worker.join() {
            Ok(parsed) => parsed,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
