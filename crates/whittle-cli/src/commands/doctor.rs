//! `whittle doctor`: the application layer's checks (`whittle_service::doctor`), one line
//! each, a fix under every problem; or, with `--json`, the checks as data.

use whittle_service::api::Config;
use whittle_service::api::{diagnose, DoctorOptions};
use whittle_service::api::{Check, CheckName, CheckStatus, Finding};

use crate::exit::Exit;

pub async fn run(config: &Config, package: Option<&str>, json: bool) -> Exit {
    let options = DoctorOptions {
        package: package.map(str::to_string),
    };
    if !json {
        println!("config: {}", config.path.display());
        println!("workspace: {}", config.workspace.display());
    }
    let report = diagnose(config, &options).await;
    let exit = Exit::of_doctor(&report);
    if json {
        let mut value = serde_json::to_value(&report).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            map.insert("exit".into(), exit.json());
        }
        match serde_json::to_string_pretty(&value) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: the report could not be written as JSON: {e}");
                return Exit::Infrastructure;
            }
        }
    } else {
        for check in &report.checks {
            println!("{}", line(check));
        }
    }
    // Each failed check as `minimize` would exit on the same problem: the configuration
    // is refused, a server that does not start or what is behind it failed.
    exit
}

/// `STATUS   what     text`, and `fix: …` under a warning or a problem.
fn line(check: &Check) -> String {
    let status = match check.status {
        CheckStatus::Ok => "ok",
        CheckStatus::Warn => "WARNING",
        CheckStatus::Fail => "PROBLEM",
    };
    let what = match (check.name, &check.subject) {
        (CheckName::Role, Some(role)) => role.as_str(),
        (name, _) => name.as_str(),
    };
    let detail = &check.detail;
    let text = match (check.name, &check.server, &check.subject) {
        (CheckName::Http, Some(server), _) => format!("({server}): {detail}"),
        (CheckName::Device, _, Some(device)) => format!("{device}  {detail}"),
        (CheckName::Role | CheckName::Adb, Some(server), _) => format!("({server}) {detail}"),
        _ if check.finding == Finding::AppsCounted => {
            format!("{detail} (check one with --package)")
        }
        _ => detail.clone(),
    };
    let mut out = format!("{status:<8} {what:<8} {text}");
    if let (CheckStatus::Warn | CheckStatus::Fail, Some(fix)) = (check.status, &check.fix) {
        out.push_str(&format!("\n         fix: {fix}"));
    }
    out
}
