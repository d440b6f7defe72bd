// TEMPORARY experiment harness (to be removed).
use whittle_bench::{simulate, simulate_on, suite, summarize, Row, Timing};
use whittle_core::strategy::SearchStrategy;

#[test]
#[ignore]
fn experiment() {
    let timing = Timing::default();
    let strategies: Vec<SearchStrategy> = match std::env::var("STRATS").ok().as_deref() {
        Some("binary") => vec![SearchStrategy::Binary],
        Some("seed") => vec![SearchStrategy::Seed],
        _ => vec![SearchStrategy::Seed, SearchStrategy::Binary],
    };
    for devices in [1u32, 4, 8] {
        let mut rows = Vec::new();
        for scenario in suite(false) {
            for budget in [30u32, 2000] {
                let seed = simulate(&scenario, SearchStrategy::Seed, budget, timing).unwrap();
                for &strategy in &strategies {
                    let run = simulate_on(&scenario, strategy, budget, timing, devices).unwrap();
                    rows.push(Row::new(&scenario, strategy, &run, seed.wall_ms, 0));
                }
            }
        }
        for s in summarize(&rows) {
            println!(
                "dev {devices} {:?} {:>4}: used {:>5} wasted {:>5} right {:>5.1}% wall {:>7.0} median {:.3}",
                s.strategy, s.max_replays, s.total_replays, s.wasted,
                s.guess_hit_rate.unwrap_or(0.0) * 100.0, s.devices_wall_s,
                s.median_wall_ratio_high.unwrap_or(f64::NAN)
            );
        }
        if std::env::var("ROWS").is_ok() {
            let want = if std::env::var("STRATS").as_deref() == Ok("seed") { SearchStrategy::Seed } else { SearchStrategy::Binary };
            let budget: u32 = std::env::var("BUDGET").map(|b| b.parse().unwrap()).unwrap_or(30);
            for r in rows.iter().filter(|r| r.strategy == want && r.max_replays == budget) {
                println!("   {:<20} used {:>3} wasted {:>3} wall {:>7.1} x {:.2} {:?}", r.scenario, r.replays, r.wasted, r.devices_wall_s, r.wall_ratio_to_seed_1dev, r.confidence);
            }
        }
    }
}

#[test]
#[ignore]
fn trace() {
    let name = std::env::var("SCEN").unwrap();
    let devices: u32 = std::env::var("DEV").unwrap().parse().unwrap();
    let budget: u32 = std::env::var("BUDGET").map(|b| b.parse().unwrap()).unwrap_or(30);
    let scenario = suite(false).into_iter().find(|s| s.name == name).unwrap();
    println!("{:?}", scenario);
    let strategy = if std::env::var("STRATS").as_deref() == Ok("seed") { SearchStrategy::Seed } else { SearchStrategy::Binary };
    let run = simulate_on(&scenario, strategy, budget, Timing::default(), devices).unwrap();
    println!("wall {} used {} wasted {}", run.wall_ms, run.result.attempts, run.wasted);
}
