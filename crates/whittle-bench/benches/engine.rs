//! Decision overhead per replay (`next_request` + `record`), the engine's share of a
//! minimize run whose replays each take seconds on a device.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use whittle_bench::{decide_all, Shape};
use whittle_core::strategy::SearchStrategy;

/// One group per shape; throughput is per replay decided.
fn bench_shape(c: &mut Criterion, name: &str, shape: Shape) {
    let mut group = c.benchmark_group(name);
    for steps in [10u32, 100, 1000] {
        let replays = decide_all(SearchStrategy::Seed, steps, shape).unwrap_or(0);
        group.throughput(Throughput::Elements(u64::from(replays)));
        group.bench_with_input(BenchmarkId::from_parameter(steps), &steps, |b, &steps| {
            b.iter(|| decide_all(SearchStrategy::Seed, black_box(steps), shape));
        });
    }
    group.finish();
}

fn decision_overhead(c: &mut Criterion) {
    // One step in the middle: the search is almost all bisection.
    bench_shape(c, "engine_per_replay_bisect", Shape::Bisect);
    // First and last step: bisection never helps, one-by-one deletion drops one step
    // per round (the seed's O(N^2) worst case).
    bench_shape(c, "engine_per_replay_one_by_one", Shape::OneByOne);
}

criterion_group!(benches, decision_overhead);
criterion_main!(benches);
