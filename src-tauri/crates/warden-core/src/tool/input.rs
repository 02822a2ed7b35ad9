//! Input types are the documentation: the doc comment of an input struct is the tool's description,
//! the doc comments of its fields are the parameters' descriptions, and the schema is derived.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use warden_protocol::{DangerLevel, ToolCategory, ToolDefinition, ToolErrorCode};

use super::ToolOutput;

/// The definition of a tool whose input type is `I`: description and schema both derived from `I`.
pub(crate) fn definition_for<I: JsonSchema>(
    name: &str,
    category: ToolCategory,
    danger: DangerLevel,
    parallel: bool,
) -> ToolDefinition {
    let generator = SchemaSettings::draft07()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut schema = generator.into_root_schema_for::<I>().to_value();
    let mut description = String::new();
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("title");
        obj.remove("$schema");
        if let Some(Value::String(text)) = obj.remove("description") {
            description = text;
        }
        // Models and providers expect `properties` even for a tool without parameters.
        obj.entry("properties").or_insert_with(|| Value::Object(Default::default()));
    }
    ToolDefinition {
        name: name.to_owned(),
        description,
        input_schema: schema,
        category,
        danger,
        parallel,
        conversation_only: false,
    }
}

/// Deserialize the input, naming the offending field on failure.
pub(crate) fn parse_input<I: DeserializeOwned>(input: Value) -> Result<I, ToolOutput> {
    let input = if input.is_null() { Value::Object(Default::default()) } else { input };
    serde_path_to_error::deserialize(input).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = if path == "." || path.is_empty() {
            format!("invalid input: {inner}")
        } else {
            format!("invalid input: field `{path}`: {inner}")
        };
        ToolOutput::error(ToolErrorCode::ValidationError, message)
    })
}
