//! Maestro flows (mobile-dev-inc/maestro, `maestro-orchestra/.../yaml/`): a config
//! section (`appId`, optional `name` and `env`), a line `---`, then a list of commands,
//! each a bare word (`- back`) or a one-key mapping (`- tapOn: {id: …}`).
//!
//! What becomes what:
//! - the first `launchApp` (of the flow's own app) → launch, the fixed setup of every
//!   replay; its options Whittle cannot apply (`clearState`, `permissions`, …) become
//!   notes. A later `launchApp` → a relaunch step (stopped first unless `stopApp:
//!   false`); one with such options is kept and skipped with what it needs.
//! - `tapOn` / `longPressOn` → tap / long press, by `id` or `text` (a bare string is
//!   text), matched as Maestro matches them (`selector`, plan/maestro_match.rs); a
//!   `point` alone is a screen position (not replayable); what the element tools cannot
//!   say (relative selectors, sizes, an optional or repeated tap) is kept and skipped.
//! - `inputText` → typing into the focused field, as Maestro types.
//! - `back`, `action: back` and `pressKey: Back` → BACK; other keys → that button.
//! - every other Maestro command is kept as a step Whittle does not replay, with the
//!   command as written in its description.
//!
//! `${…}` is evaluated as `env` says. A web flow (`url:` in the config) is refused:
//! Whittle replays Android apps.

mod bounded_load;
mod commands;
mod env;
pub use env::is_variable_name;
mod selector;
mod yaml;

use std::collections::BTreeMap;

use saphyr::MarkedYaml;

use super::{
    checked_text, line_number, FlowFormat, ImportError, ImportNote, ImportProblem, ImportedFlow,
};
use bounded_load::{load_bounded, LoadFailure};
use commands::Commands;
use env::Variables;
use yaml::{key_text, line_of, mapping, scalar_text, Doc};

/// Parses a Maestro flow; `file` names it in errors.
pub fn parse(file: &str, bytes: &[u8]) -> Result<ImportedFlow, ImportError> {
    parse_with(file, bytes, &BTreeMap::new())
}

/// [`parse`] with the values given on the command line (`-e NAME=value`).
pub fn parse_with(
    file: &str,
    bytes: &[u8],
    outside_env: &BTreeMap<String, String>,
) -> Result<ImportedFlow, ImportError> {
    let text = checked_text(file, bytes)?;
    let docs = load_bounded(text).map_err(|failure| match failure {
        LoadFailure::Syntax(e) => ImportError::at(
            file,
            Some(e.marker().line()),
            None,
            ImportProblem::Syntax {
                format: "YAML",
                detail: e.info().to_owned(),
            },
        ),
        LoadFailure::TooDeep { limit, line } => {
            ImportError::at(file, Some(line), None, ImportProblem::TooDeep { limit })
        }
    })?;
    let doc = Doc { file };
    let sections: Vec<&MarkedYaml> = docs.iter().filter(|d| !d.data.is_null()).collect();
    let [config, commands] = sections.as_slice() else {
        return Err(doc.error(
            sections.get(2).map(|d| line_of(d)),
            None,
            ImportProblem::Structure(format!(
                "a Maestro flow has a config section (appId: …) and a commands section, \
                 separated by a line `---` (found {} section(s))",
                sections.len()
            )),
        ));
    };
    let mut config = Config::read(&doc, config)?;
    let vars = Variables::new(outside_env, &config.env);
    // `appId: ${APP_ID}` names the app through a variable, as Maestro allows.
    config.app_id = vars
        .substitute(&config.app_id)
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| {
            doc.error(
                None,
                Some("appId".into()),
                ImportProblem::BadValue(
                    "appId uses a variable Whittle cannot evaluate; give its value on the \
                     command line (-e NAME=value)"
                        .into(),
                ),
            )
        })?;
    let mut reader = Commands::new(&doc, &config.app_id, &vars);
    let steps = reader.read(commands)?;
    config.notes.append(&mut reader.notes);
    Ok(ImportedFlow {
        format: FlowFormat::Maestro,
        package: Some(config.app_id),
        name: config.name,
        steps,
        notes: config.notes,
    })
}

/// The config section: what the flow is for.
struct Config {
    app_id: String,
    name: Option<String>,
    /// In file order: each entry may use the ones before it.
    env: Vec<(String, String)>,
    notes: Vec<ImportNote>,
}

impl Config {
    fn read(doc: &Doc, node: &MarkedYaml) -> Result<Config, ImportError> {
        let map = mapping(doc, node, "config")?;
        let mut app_id = None;
        let mut name = None;
        let mut env = Vec::new();
        let mut notes = Vec::new();
        for (key, value) in map.iter() {
            let field = key_text(doc, key, "config")?;
            match field.as_str() {
                "url" => {
                    return Err(doc.error(Some(line_of(key)), Some(field), ImportProblem::WebFlow))
                }
                "appId" => {
                    app_id = Some(
                        scalar_text(value)
                            .filter(|s| !s.trim().is_empty())
                            .ok_or_else(|| {
                                doc.error(
                                    Some(line_of(value)),
                                    Some(field.clone()),
                                    ImportProblem::BadValue(
                                        "appId must be the app's package name".into(),
                                    ),
                                )
                            })?,
                    )
                }
                "name" => name = scalar_text(value),
                "env" => {
                    for (k, v) in mapping(doc, value, "env")?.iter() {
                        let k = key_text(doc, k, "env")?;
                        // A value that is not a scalar cannot be substituted into text.
                        if let Some(v) = scalar_text(v) {
                            env.push((k, v));
                        }
                    }
                }
                "onFlowStart" | "onFlowComplete" => notes.push(ImportNote::Hook {
                    line: line_number(line_of(key)),
                    hook: field,
                }),
                // tags, jsScriptEngine, ext…: about running the flow, not what it does.
                _ => {}
            }
        }
        let app_id = app_id.ok_or_else(|| {
            doc.error(
                Some(line_of(node)),
                Some("appId".into()),
                ImportProblem::Structure(
                    "the config section must name the app (appId: com.example.app)".into(),
                ),
            )
        })?;
        Ok(Config {
            app_id,
            name,
            env,
            notes,
        })
    }
}

#[cfg(test)]
#[path = "maestro/tests.rs"]
mod tests;
