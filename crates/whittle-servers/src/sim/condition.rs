//! `when` conditions of a crash rule: a plain value means equality, or one comparison
//! object `{">=": n}` / `{"<": n}` / `{"!=": v}` (also `>`, `<=`, `=`).
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub enum Condition {
    Eq(Value),
    Ne(Value),
    Ge(f64),
    Gt(f64),
    Le(f64),
    Lt(f64),
}

/// Why a `when` value is not a condition (serde reports it with the field's path).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConditionError {
    #[error("a comparison object holds exactly one operator")]
    NotOneOperator,
    #[error("operator {op:?} needs a number, got {operand}")]
    NotANumber { op: String, operand: Value },
    #[error("unknown operator {op:?} (use =, !=, >=, >, <=, <)")]
    UnknownOperator { op: String },
}

impl TryFrom<Value> for Condition {
    type Error = ConditionError;

    fn try_from(v: Value) -> Result<Self, ConditionError> {
        let Value::Object(map) = &v else {
            return Ok(Condition::Eq(v));
        };
        let mut entries = map.iter();
        let (Some((op, operand)), None) = (entries.next(), entries.next()) else {
            return Err(ConditionError::NotOneOperator);
        };
        let number = || {
            operand.as_f64().ok_or_else(|| ConditionError::NotANumber {
                op: op.clone(),
                operand: operand.clone(),
            })
        };
        Ok(match op.as_str() {
            "=" => Condition::Eq(operand.clone()),
            "!=" => Condition::Ne(operand.clone()),
            ">=" => Condition::Ge(number()?),
            ">" => Condition::Gt(number()?),
            "<=" => Condition::Le(number()?),
            "<" => Condition::Lt(number()?),
            other => {
                return Err(ConditionError::UnknownOperator {
                    op: other.to_string(),
                })
            }
        })
    }
}

impl Condition {
    /// Whether the state value (absent = null) satisfies the condition. Numbers compare
    /// by value so `1` and `1.0` are equal; an ordering on a non-number is false.
    pub fn holds(&self, actual: Option<&Value>) -> bool {
        let actual = actual.unwrap_or(&Value::Null);
        let num = actual.as_f64();
        match self {
            Condition::Eq(v) => same(actual, v),
            Condition::Ne(v) => !same(actual, v),
            Condition::Ge(n) => num.is_some_and(|a| a >= *n),
            Condition::Gt(n) => num.is_some_and(|a| a > *n),
            Condition::Le(n) => num.is_some_and(|a| a <= *n),
            Condition::Lt(n) => num.is_some_and(|a| a < *n),
        }
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cond(v: Value) -> Condition {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn plain_value_is_equality_and_numbers_compare_by_value() {
        assert!(cond(json!(false)).holds(Some(&json!(false))));
        assert!(!cond(json!(false)).holds(Some(&json!(true))));
        assert!(cond(json!(1)).holds(Some(&json!(1.0))));
        assert!(!cond(json!(false)).holds(None));
    }

    #[test]
    fn comparisons() {
        assert!(cond(json!({">=": 1})).holds(Some(&json!(1))));
        assert!(!cond(json!({">=": 2})).holds(Some(&json!(1))));
        assert!(cond(json!({"<": 2})).holds(Some(&json!(1))));
        assert!(!cond(json!({"<": 1})).holds(Some(&json!(1))));
        assert!(cond(json!({"!=": "a"})).holds(Some(&json!("b"))));
        assert!(!cond(json!({">=": 1})).holds(Some(&json!("x"))));
    }

    #[test]
    fn bad_operators_are_refused() {
        assert!(serde_json::from_value::<Condition>(json!({"~": 1})).is_err());
        assert!(serde_json::from_value::<Condition>(json!({">=": "x"})).is_err());
        assert!(serde_json::from_value::<Condition>(json!({">=": 1, "<": 3})).is_err());
    }
}
