//! whittle-core's integration tests in one binary: each file is a module of it, so the
//! dependency tree is linked once rather than once per file (docs/architecture.md,
//! "Building fast").

mod alone;
mod engine_support;
mod plan_support;
mod session_fixture;

mod architecture;
mod engine_baseline_tries;
mod engine_budget;
mod engine_example;
mod engine_properties;
mod import_corpus_privacy;
mod inspect_properties;
mod inspect_real_dumps;
mod nesting_limits;
mod plan_inputs;
mod plan_rules;
mod session_crashes;
mod session_huge;
mod session_id;
mod session_load;
mod session_symlinks;
mod session_workspace;
mod signature_builds;
mod signature_corpus;
mod signature_fixtures;
mod signature_noise;
mod strategy_binary;
mod strategy_flaky;
