//! `${VAR}` in a `url` server's header values, as other MCP clients write it
//! (`"Authorization": "Bearer ${LAB_TOKEN}"`): the token stays out of the file.

/// Why a value could not be expanded; names the variable, never the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpandError {
    Missing(String),
    Empty(String),
    Malformed(String),
}

impl std::fmt::Display for ExpandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandError::Missing(var) => write!(f, "environment variable {var} is not set"),
            ExpandError::Empty(var) => write!(f, "environment variable {var} is empty"),
            ExpandError::Malformed(why) => f.write_str(why),
        }
    }
}

/// Replaces every `${NAME}` (NAME: letters, digits, `_`, not starting with a digit) by
/// `lookup(NAME)`. A `$` not followed by `{` is kept as written.
pub fn expand(value: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            return Err(ExpandError::Malformed(
                "`${` without a closing `}`".to_string(),
            ));
        };
        let name = &after[..end];
        if !is_var_name(name) {
            return Err(ExpandError::Malformed(format!(
                "`${{{name}}}` is not a variable name (letters, digits and _)"
            )));
        }
        match lookup(name) {
            None => return Err(ExpandError::Missing(name.to_string())),
            Some(v) if v.is_empty() => return Err(ExpandError::Empty(name.to_string())),
            Some(v) => out.push_str(&v),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn is_var_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "LAB_TOKEN" => Some("t0k3n".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn variables_are_replaced_and_the_rest_kept() {
        assert_eq!(expand("Bearer ${LAB_TOKEN}", &env).unwrap(), "Bearer t0k3n");
        assert_eq!(
            expand("${LAB_TOKEN}${LAB_TOKEN}", &env).unwrap(),
            "t0k3nt0k3n"
        );
        assert_eq!(expand("cost $5 {x}", &env).unwrap(), "cost $5 {x}");
        assert_eq!(expand("", &env).unwrap(), "");
    }

    #[test]
    fn a_missing_variable_is_named() {
        assert_eq!(
            expand("Bearer ${LAB_B_TOKEN}", &env),
            Err(ExpandError::Missing("LAB_B_TOKEN".into()))
        );
        assert_eq!(
            expand("${EMPTY}", &env).unwrap_err().to_string(),
            "environment variable EMPTY is empty"
        );
        assert!(matches!(
            expand("${LAB", &env),
            Err(ExpandError::Malformed(_))
        ));
        assert!(matches!(
            expand("${1X}", &env),
            Err(ExpandError::Malformed(_))
        ));
        assert!(matches!(
            expand("${}", &env),
            Err(ExpandError::Malformed(_))
        ));
    }
}
