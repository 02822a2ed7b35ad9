//! Checking input against a tool's JSON Schema before it runs. Covers the part of JSON Schema that
//! tool schemas use (types, required, properties, additionalProperties, enum, bounds, items, lengths);
//! keywords it does not know are ignored, so an MCP schema is never rejected for being rich.

use serde_json::Value;

/// The first violation found, naming the field (`path: why`).
pub(crate) fn validate(schema: &Value, value: &Value) -> Result<(), String> {
    check(schema, value, "")
}

fn field(path: &str) -> String {
    if path.is_empty() {
        "input".to_owned()
    } else {
        format!("field `{path}`")
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(expected: &str, value: &Value) -> bool {
    match expected {
        "number" => value.is_number(),
        "integer" => {
            type_name(value) == "integer" || value.as_f64().is_some_and(|f| f.fract() == 0.0 && f.is_finite())
        }
        other => type_name(value) == other,
    }
}

fn check(schema: &Value, value: &Value, path: &str) -> Result<(), String> {
    let Some(schema) = schema.as_object() else { return Ok(()) };
    if let Some(expected) = schema.get("type") {
        let allowed: Vec<&str> = match expected {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !allowed.is_empty() && !allowed.iter().any(|t| type_matches(t, value)) {
            return Err(format!(
                "{} must be {}, got {}",
                field(path),
                allowed.join(" or "),
                type_name(value)
            ));
        }
    }
    if let Some(Value::Array(options)) = schema.get("enum") {
        if !options.contains(value) {
            let shown: Vec<String> = options.iter().map(Value::to_string).collect();
            return Err(format!("{} must be one of {}, got {value}", field(path), shown.join(", ")));
        }
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            if n < min {
                return Err(format!("{} must be at least {min}, got {n}", field(path)));
            }
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            if n > max {
                return Err(format!("{} must be at most {max}, got {n}", field(path)));
            }
        }
    }
    if let Some(s) = value.as_str() {
        let len = s.chars().count() as u64;
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
            if len < min {
                return Err(format!("{} must be at least {min} characters long", field(path)));
            }
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
            if len > max {
                return Err(format!("{} must be at most {max} characters long", field(path)));
            }
        }
    }
    if let (Some(items), Value::Array(values)) = (schema.get("items"), value) {
        for (i, item) in values.iter().enumerate() {
            check(items, item, &format!("{path}[{i}]"))?;
        }
    }
    if let Value::Object(map) = value {
        let join = |key: &str| if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
        if let Some(Value::Array(required)) = schema.get("required") {
            for key in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(key) {
                    return Err(format!("missing required field `{}`", join(key)));
                }
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (key, item) in map {
            match properties.and_then(|p| p.get(key)) {
                Some(sub) => check(sub, item, &join(key))?,
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        let known: Vec<&String> = properties.map(|p| p.keys().collect()).unwrap_or_default();
                        return Err(format!("unknown field `{}` (expected one of {known:?})", join(key)));
                    }
                    Some(sub @ Value::Object(_)) => check(sub, item, &join(key))?,
                    _ => {}
                },
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "required": ["path"], "additionalProperties": false,
            "properties": {"path": {"type": "string"}, "n": {"type": ["integer", "null"], "minimum": 0},
                "mode": {"type": "string", "enum": ["a", "b"]}, "globs": {"type": "array", "items": {"type": "string"}}}})
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (json!({}), "missing required field `path`"),
            (json!({"path": 1}), "field `path` must be string"),
            (json!({"path": "x", "n": -1}), "field `n` must be at least 0"),
            (json!({"path": "x", "n": 1.5}), "field `n` must be integer or null"),
            (json!({"path": "x", "mode": "c"}), "field `mode` must be one of"),
            (json!({"path": "x", "globs": ["a", 2]}), "field `globs[1]` must be string"),
            (json!({"path": "x", "extra": 1}), "unknown field `extra`"),
            (json!("text"), "input must be object"),
        ];
        for (input, expected) in cases {
            let err = validate(&schema(), &input).err().unwrap_or_default();
            assert!(err.contains(expected), "{input}: {err}");
        }
        assert!(validate(&schema(), &json!({"path": "x", "n": null, "mode": "a"})).is_ok());
    }
}
