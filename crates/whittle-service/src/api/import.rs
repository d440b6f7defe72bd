//! Importing a Maestro flow or a Firebase Robo script as a new session of the
//! workspace, from the request a front end sends: the file must be named by its full
//! path, and a blank name or package is no name or package.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use whittle_core::import::maestro::is_variable_name;
use whittle_core::import::FlowFormat;

use crate::import::{read_flow, ImportFailure, ImportOptions, ImportSummary, ReadFlow};

/// What to import, and into which workspace.
#[derive(Clone, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportRequest {
    pub workspace: String,
    pub format: FlowFormat,
    /// The flow file, by its full path.
    pub file: String,
    pub name: Option<String>,
    pub package: Option<String>,
    /// A Maestro flow's variables (`-e NAME=value`); none when absent.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub variables: Option<BTreeMap<String, String>>,
    /// Values the user marks private: never stored, whatever their field.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub private_values: Option<Vec<String>>,
}

/// Names the variables but shows no value of theirs, and only how many private values
/// there are: a front end's span or error may print a request (the app's `import_flow`
/// span once logged it whole).
impl fmt::Debug for ImportRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self
            .variables
            .as_ref()
            .map(|v| v.keys().collect::<Vec<_>>());
        f.debug_struct("ImportRequest")
            .field("workspace", &self.workspace)
            .field("format", &self.format)
            .field("file", &self.file)
            .field("name", &self.name)
            .field("package", &self.package)
            .field("variables", &names)
            .field(
                "private_values",
                &self.private_values.as_ref().map(Vec::len),
            )
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ImportRefusal {
    #[error("choose the flow file (got “{0}”)")]
    NotAbsolute(String),
    #[error("“{0}” is not a variable name: letters, digits and _, not starting with a digit")]
    VariableName(String),
    #[error(transparent)]
    Import(#[from] ImportFailure),
}

impl ImportRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            ImportRefusal::NotAbsolute(_) => "file_not_absolute",
            ImportRefusal::VariableName(_) => "variable_name",
            ImportRefusal::Import(_) => "import_failed",
        }
    }
}

/// Writes the session `request` describes and says what it made.
pub fn import(request: &ImportRequest) -> Result<ImportSummary, ImportRefusal> {
    Ok(read_import(request)?.write()?)
}

/// Every check of [`import`], writing nothing: the flow read, parsed and named.
pub fn read_import(request: &ImportRequest) -> Result<ReadFlow, ImportRefusal> {
    let file = PathBuf::from(&request.file);
    if !file.is_absolute() {
        return Err(ImportRefusal::NotAbsolute(request.file.clone()));
    }
    if let Some(name) = request
        .variables
        .iter()
        .flatten()
        .map(|(name, _)| name)
        .find(|name| !is_variable_name(name))
    {
        return Err(ImportRefusal::VariableName(name.clone()));
    }
    let given = |s: &Option<String>| s.clone().filter(|v| !v.trim().is_empty());
    let opts = ImportOptions {
        format: request.format,
        file,
        name: given(&request.name),
        package: given(&request.package),
        variables: request.variables.clone().unwrap_or_default(),
        private_values: request.private_values.clone().unwrap_or_default(),
    };
    Ok(read_flow(Path::new(&request.workspace), &opts)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(variables: &[(&str, &str)]) -> ImportRequest {
        ImportRequest {
            workspace: "/nowhere".into(),
            format: FlowFormat::Maestro,
            file: "/nowhere/flow.yaml".into(),
            name: None,
            package: None,
            variables: Some(
                variables
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
            private_values: None,
        }
    }

    #[test]
    fn a_request_prints_no_value_of_a_variable_nor_a_private_value() {
        let mut asked = request(&[("PASSWORD", "S3cret-Marker-9876")]);
        asked.private_values = Some(vec!["hunter2-private".into()]);
        let shown = format!("{asked:?}");
        assert!(!shown.contains("S3cret-Marker-9876"), "{shown}");
        assert!(!shown.contains("hunter2-private"), "{shown}");
        assert!(shown.contains("PASSWORD") && shown.contains("/nowhere/flow.yaml"));
    }

    #[test]
    fn a_variable_that_is_not_a_name_is_refused_before_the_file_is_read() {
        for bad in ["", "1ST", "MY VAR", "A-B", "${X}"] {
            let refused = read_import(&request(&[(bad, "x")])).unwrap_err();
            assert!(
                matches!(&refused, ImportRefusal::VariableName(n) if n == bad),
                "{bad:?}: {refused}"
            );
        }
        // A good name gets as far as the (missing) file.
        let refused = read_import(&request(&[("USER_2", "x")])).unwrap_err();
        assert!(matches!(refused, ImportRefusal::Import(_)), "{refused}");
    }
}
