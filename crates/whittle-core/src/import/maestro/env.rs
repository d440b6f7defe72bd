//! Maestro's variables: `${…}` in a command's text, filled from the values the flow
//! defines and those given on the command line (`-e NAME=value`).
//!
//! Maestro evaluates `${…}` as JavaScript. Whittle evaluates the part of it flows use for
//! values: a name, a quoted literal, and `a || b || "default"` (the first that is defined
//! and not empty). Anything else (a script, `output.x`, arithmetic) is unknown, so the
//! step that needs it is kept but not replayed. `\${` is a literal `${`, as in Maestro.
//!
//! Order, as Maestro applies them (`Env.withEnv` prepends a define-variables command for
//! the command line's values, then one for the flow's `env`): the command line's values
//! first, then the flow's `env` entries in file order, each evaluated with what is defined
//! so far. So `USER: ${USER || "test_user_1"}` keeps a `-e USER=…` and defaults otherwise.

use std::collections::BTreeMap;

/// Whether `name` may name a variable given from outside (`-e NAME=value`): letters,
/// digits and `_`, not starting with a digit (a JavaScript identifier, as Maestro reads
/// it, without `$`).
pub fn is_variable_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Defined variables; a name mapped to `None` is one whose value Whittle cannot know.
#[derive(Debug, Clone, Default)]
pub(crate) struct Variables {
    values: BTreeMap<String, Option<String>>,
}

impl Variables {
    /// The command line's values, then the flow's `env` entries in file order.
    pub fn new(outside: &BTreeMap<String, String>, flow_env: &[(String, String)]) -> Variables {
        let mut vars = Variables {
            values: outside
                .iter()
                .map(|(k, v)| (k.clone(), Some(v.clone())))
                .collect(),
        };
        for (name, value) in flow_env {
            let evaluated = vars.substitute(value);
            vars.values.insert(name.clone(), evaluated);
        }
        vars
    }

    /// `text` with every `${…}` evaluated; `None` when one cannot be.
    pub fn substitute(&self, text: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            if rest[..start].ends_with('\\') {
                out.push_str(&rest[..start - 1]);
                out.push_str("${");
                rest = &rest[start + 2..];
                continue;
            }
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let end = after.find('}')?;
            out.push_str(&self.evaluate(&after[..end])?);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// Why `text` cannot be evaluated: the first variable it needs that has no value
    /// (what `-e NAME=value` would give), or "" when it needs a script's result or an
    /// expression Whittle does not evaluate. `None` when it can be.
    pub fn unknown_in(&self, text: &str) -> Option<String> {
        if self.substitute(text).is_some() {
            return None;
        }
        for expression in expressions(text) {
            if self.evaluate(expression).is_some() {
                continue;
            }
            let mut operands = expression.split("||").map(str::trim);
            // All names, none defined: the first is the one to give.
            if operands.clone().all(|o| self.operand(o) == Some(None)) {
                return operands.next().map(str::to_owned);
            }
        }
        Some(String::new())
    }

    /// `a || b || "c"`: the first operand that is defined and not empty (JavaScript's
    /// `||` on strings), else the last defined one. Only undefined names: unknown (what
    /// Maestro's script engine prints for `undefined` is not a value to type).
    fn evaluate(&self, expression: &str) -> Option<String> {
        let mut last = None;
        for operand in expression.split("||").map(str::trim) {
            match self.operand(operand)? {
                Some(v) if !v.is_empty() => return Some(v),
                Some(v) => last = Some(v),
                None => {}
            }
        }
        last
    }

    /// `Some(Some(v))` a value, `Some(None)` an undefined name (JavaScript's `undefined`),
    /// `None` what Whittle cannot evaluate.
    fn operand(&self, operand: &str) -> Option<Option<String>> {
        let quoted = ['"', '\'']
            .iter()
            .find(|q| operand.len() >= 2 && operand.starts_with(**q) && operand.ends_with(**q));
        if let Some(q) = quoted {
            let inner = &operand[1..operand.len() - 1];
            return (!inner.contains(*q) && !inner.contains('\\')).then(|| Some(inner.to_owned()));
        }
        let is_name = !operand.is_empty()
            && !operand.starts_with(|c: char| c.is_ascii_digit())
            && operand
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if !is_name {
            return None;
        }
        match self.values.get(operand) {
            Some(Some(v)) => Some(Some(v.clone())),
            // Defined from something Whittle could not evaluate.
            Some(None) => None,
            None => Some(None),
        }
    }
}

/// The names a text's `${…}` read (`${PASSWORD}`, `${USER || "x"}` → PASSWORD, USER):
/// a variable's name says what its value is, as a field's name does.
pub(crate) fn variable_names(text: &str) -> Vec<&str> {
    expressions(text)
        .flat_map(|e| e.split("||").map(str::trim))
        .filter(|o| is_variable_name(o))
        .collect()
}

/// The inside of each unescaped `${…}` of `text`.
fn expressions(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        let start = rest.find("${")?;
        let escaped = rest[..start].ends_with('\\');
        let after = &rest[start + 2..];
        if escaped {
            rest = after;
            continue;
        }
        let end = after.find('}')?;
        rest = &after[end + 1..];
        return Some(&after[..end]);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(outside: &[(&str, &str)], flow: &[(&str, &str)]) -> Variables {
        let outside = outside
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let flow: Vec<_> = flow
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Variables::new(&outside, &flow)
    }

    #[test]
    fn defaults_apply_unless_the_command_line_gives_a_value() {
        let flow = [("USER_ID", r#"${USER_ID || "test_user_1"}"#)];
        let none = vars(&[], &flow);
        assert_eq!(
            none.substitute("id ${USER_ID}").as_deref(),
            Some("id test_user_1")
        );
        let given = vars(&[("USER_ID", "qa_7")], &flow);
        assert_eq!(given.substitute("${USER_ID}").as_deref(), Some("qa_7"));
        let inline = vars(&[("EMPTY", "")], &[]);
        assert_eq!(
            inline.substitute("${NAME || 'Ada'}!").as_deref(),
            Some("Ada!")
        );
        assert_eq!(inline.substitute("${EMPTY || NAME}").as_deref(), Some(""));
        assert_eq!(
            inline.substitute("${NAME}"),
            None,
            "undefined is not a value"
        );
    }

    #[test]
    fn what_is_unknown_is_named_the_variable_or_a_script() {
        let v = vars(&[("HOST", "x")], &[("A", "${output.token}")]);
        assert_eq!(v.unknown_in("${HOST}"), None);
        assert_eq!(v.unknown_in("user ${NAME}").as_deref(), Some("NAME"));
        assert_eq!(
            v.unknown_in("${HOST} ${EMAIL || PHONE}").as_deref(),
            Some("EMAIL")
        );
        assert_eq!(v.unknown_in("${output.token}").as_deref(), Some(""));
        assert_eq!(
            v.unknown_in("${A}").as_deref(),
            Some(""),
            "defined by a script"
        );
        assert_eq!(
            variable_names(r#"${PASSWORD} \${NOT} ${USER || "x"}"#),
            ["PASSWORD", "USER"]
        );
    }

    #[test]
    fn the_flow_env_overrides_the_command_line_as_maestro_does() {
        let v = vars(&[("HOST", "cli")], &[("HOST", "flow")]);
        assert_eq!(v.substitute("${HOST}").as_deref(), Some("flow"));
    }

    #[test]
    fn scripts_and_outputs_are_unknown_and_escapes_are_literal() {
        let v = vars(&[], &[("A", "${output.token}")]);
        assert_eq!(v.substitute("${output.token}"), None);
        assert_eq!(v.substitute("${A}"), None, "defined from a script");
        assert_eq!(v.substitute("${1 + 2}"), None);
        assert_eq!(v.substitute("${B || 'x' + 'y'}"), None);
        assert_eq!(
            v.substitute(r"cost \${PRICE}").as_deref(),
            Some("cost ${PRICE}")
        );
        assert_eq!(v.substitute("open ${").as_deref(), None);
    }
}
