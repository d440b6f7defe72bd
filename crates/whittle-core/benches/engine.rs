//! Decision overhead per replay (`next_request` + `record`), the engine's share of a
//! minimize run whose replays each take seconds on a device.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use whittle_core::{Engine, Outcome, Request};

/// Drives a whole search with a deterministic oracle (crash needs every `essential`
/// step) and returns how many replays it decided.
fn run_search(steps: u32, essential: &[u32], budget: u32) -> u32 {
    let replayable: Vec<u32> = (1..=steps).collect();
    let Ok(mut engine) = Engine::new(replayable, budget) else {
        return 0;
    };
    loop {
        match engine.next_request() {
            Request::Replay(request) => {
                let outcome = if essential.iter().all(|s| request.candidate.contains(s)) {
                    Outcome::Reproduced
                } else {
                    Outcome::NotReproduced {
                        reason: "no_crash".to_owned(),
                    }
                };
                engine.record(outcome);
            }
            Request::Done(result) => return result.attempts,
        }
    }
}

/// `shape` picks the essential steps for a path of `steps` steps.
fn bench_shape(c: &mut Criterion, name: &str, shape: fn(u32) -> Vec<u32>) {
    let mut group = c.benchmark_group(name);
    for steps in [10u32, 100, 1000] {
        // Budget large enough to finish; throughput is per replay decided.
        let budget = 100_000;
        let essential = shape(steps);
        let replays = run_search(steps, &essential, budget);
        group.throughput(Throughput::Elements(u64::from(replays)));
        group.bench_with_input(BenchmarkId::from_parameter(steps), &steps, |b, &steps| {
            b.iter(|| run_search(black_box(steps), &essential, budget));
        });
    }
    group.finish();
}

fn decision_overhead(c: &mut Criterion) {
    // One step in the middle: the search is almost all bisection.
    bench_shape(c, "engine_per_replay_bisect", |steps| vec![steps / 2 + 1]);
    // First and last step: bisection never helps, one-by-one deletion drops one step
    // per round (the seed's O(N^2) worst case).
    bench_shape(c, "engine_per_replay_one_by_one", |steps| vec![1, steps]);
}

criterion_group!(benches, decision_overhead);
criterion_main!(benches);
