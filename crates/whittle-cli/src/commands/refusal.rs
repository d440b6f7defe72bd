//! A run refused, or failed before its search, as the CLI tells it: the sentence on
//! stderr (with the fix under each server problem), or with `--json` one object on
//! stdout — `{status: "refused"|"failed", cause, error, exit}`, `cause` the API's typed
//! [`RunRefusal`] — so `--json` prints one object whatever the outcome
//! (docs/design.md §3). The exit code is the refusal's (docs/design.md §8).

use std::fmt::Display;

use whittle_service::api::{Config, ConfigError};
use whittle_service::api::{InvalidCount, ReproofRefusal, RunFailure, RunRefusal};

use crate::exit::Exit;
use crate::locale;

/// Prints `refusal` (worded as `sentence`, with `fixes` under it) and returns its exit.
fn tell(refusal: &RunRefusal, sentence: &dyn Display, fixes: &[String], json: bool) -> Exit {
    let exit = Exit::of_refusal(refusal);
    if json {
        println!(
            "{}",
            serde_json::json!({
                "status": refusal.status(),
                "cause": refusal,
                "error": sentence.to_string(),
                "exit": exit.json(),
            })
        );
    } else {
        eprintln!("{}{sentence}", locale::words().error);
        for fix in fixes {
            eprintln!("  fix: {fix}");
        }
    }
    exit
}

pub fn count(error: &InvalidCount, json: bool) -> Exit {
    let flag = format!("--{}", error.field.as_str().replace('_', "-"));
    let words = (locale::words().bad_count)(&flag, &error.given);
    tell(&RunRefusal::of_count(error), &words, &[], json)
}

/// Arguments clap refused (a missing or unknown argument, a bad value): the refusal
/// clap printed on stderr, and with `--json` also as an `invalid_argument` object.
pub fn argument(error: &clap::Error, json: bool) -> Exit {
    let sentence = clap_sentence(error);
    let refusal = RunRefusal::InvalidArgument {
        detail: sentence.clone(),
    };
    if json {
        // clap has worded it on stderr already; the object goes to stdout.
        return tell(&refusal, &sentence, &[], true);
    }
    Exit::of_refusal(&refusal)
}

/// clap's message without its `error: ` prefix, tip and usage: its first paragraph,
/// on one line (a missing argument is named on the line after the sentence).
fn clap_sentence(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let text = paragraph.join(" ");
    text.strip_prefix("error: ").unwrap_or(&text).to_owned()
}

/// `minimize --reprove` of a run that has nothing to start from here.
pub fn reproof(error: &ReproofRefusal, json: bool) -> Exit {
    tell(&RunRefusal::of_reproof(error), error, &[], json)
}

pub fn config(error: &ConfigError, json: bool) -> Exit {
    tell(&RunRefusal::of_config(error), error, &[], json)
}

pub fn failure(error: &RunFailure, config: &Config, json: bool) -> Exit {
    let fixes: Vec<String> = match error {
        RunFailure::Servers(e) => e.problems.iter().map(|p| p.fix(&config.path)).collect(),
        RunFailure::Run(_) => Vec::new(),
    };
    match error {
        // The servers' own sentence names the config and every role at fault.
        RunFailure::Servers(e) => tell(&error.refusal(), e, &fixes, json),
        RunFailure::Run(e) => tell(&error.refusal(), e, &fixes, json),
    }
}
