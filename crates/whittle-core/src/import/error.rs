//! What can be wrong with a flow file, phrased for a tester: the file, the line and the
//! field, e.g. `login.yaml line 7, field commands[3].tapOn.below: …`.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}{}{}: {problem}", line_part(.line), field_part(.field))]
pub struct ImportError {
    /// The flow file as the user named it.
    pub file: String,
    /// 1-based line, when the problem has one.
    pub line: Option<usize>,
    /// Where in the document (`commands[3].tapOn.id`, `[0].actions[2].eventType`).
    pub field: Option<String>,
    pub problem: ImportProblem,
}

impl ImportError {
    pub(crate) fn file(file: &str, problem: ImportProblem) -> Self {
        ImportError::at(file, None, None, problem)
    }

    pub(crate) fn at(
        file: &str,
        line: Option<usize>,
        field: Option<String>,
        problem: ImportProblem,
    ) -> Self {
        ImportError {
            file: file.to_owned(),
            line,
            field,
            problem,
        }
    }
}

fn line_part(line: &Option<usize>) -> String {
    line.map(|n| format!(" line {n}")).unwrap_or_default()
}

fn field_part(field: &Option<String>) -> String {
    match field {
        Some(f) if !f.is_empty() => format!(", field {f}"),
        _ => String::new(),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ImportProblem {
    #[error("is larger than {limit_bytes} bytes; refusing to read it")]
    TooLarge { limit_bytes: usize },
    #[error("is not valid UTF-8 text")]
    NotUtf8,
    #[error("not valid {format} ({detail})")]
    Syntax {
        format: &'static str,
        detail: String,
    },
    #[error("{0}")]
    Structure(String),
    #[error("unknown command {name} (this is not a {format} command)")]
    UnknownCommand { format: &'static str, name: String },
    #[error("{0}")]
    BadValue(String),
    #[error("nests lists or mappings deeper than {limit} levels here; refusing to import it")]
    TooDeep { limit: usize },
    #[error("has more than {limit} commands; refusing to import it")]
    TooManySteps { limit: usize },
    #[error("has no commands to import")]
    NoSteps,
    #[error("is a web flow (url: …): Whittle replays Android apps, so it cannot import it")]
    WebFlow,
}
