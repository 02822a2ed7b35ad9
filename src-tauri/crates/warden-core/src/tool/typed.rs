//! The typed side of a tool: a [`TypedTool`] names its input type and its constants, and receives its
//! input already deserialized. [`Typed`] turns one into the object-safe [`Tool`] the registry holds:
//! it builds the definition once (description and schema from the input type, see `input.rs`) and
//! parses the JSON input once per call, answering an invalid input with the validation error.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use warden_protocol::{ApprovalPreview, DangerLevel, ToolCategory, ToolDefinition};

use super::input::{definition_for, parse_input};
use super::{Needs, Tool, ToolContext, ToolOutput};

/// A tool with a typed input. The doc comment of `Input` is the tool's description and the doc
/// comments of its fields the parameters' descriptions.
#[async_trait]
pub trait TypedTool: Send + Sync + 'static {
    type Input: DeserializeOwned + JsonSchema + Send + Sync;

    /// The name the model calls it by.
    const NAME: &'static str;
    /// What it does, in a few plain words for people (the permissions list).
    const LABEL: &'static str;
    const CATEGORY: ToolCategory;
    const DANGER: DangerLevel;
    /// Whether its calls may run concurrently with other parallel-capable calls.
    const PARALLEL: bool;
    /// Whether it changes nothing but the conversation ([`ToolDefinition::conversation_only`]).
    const CONVERSATION_ONLY: bool = false;

    /// Run one call with its parsed input.
    async fn run(&self, input: Self::Input, ctx: ToolContext) -> ToolOutput;

    /// What the approval dialog shows for this input (none unless the tool says).
    async fn preview(&self, _input: Self::Input, _ctx: &ToolContext) -> Option<ApprovalPreview> {
        None
    }

    /// What a call with this input needs of the policy, the registry and the box (nothing special
    /// unless the tool says).
    fn needs(&self, _input: &Self::Input) -> Needs {
        Needs::default()
    }
}

/// A [`TypedTool`] as the registry's object-safe [`Tool`].
pub struct Typed<T: TypedTool> {
    tool: T,
    definition: ToolDefinition,
}

impl<T: TypedTool> Typed<T> {
    pub fn new(tool: T) -> Self {
        let mut definition = definition_for::<T::Input>(T::NAME, T::CATEGORY, T::DANGER, T::PARALLEL);
        definition.conversation_only = T::CONVERSATION_ONLY;
        Self { tool, definition }
    }
}

#[async_trait]
impl<T: TypedTool> Tool for Typed<T> {
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    fn label(&self) -> &str {
        T::LABEL
    }

    async fn execute(&self, input: serde_json::Value, ctx: ToolContext) -> ToolOutput {
        match parse_input::<T::Input>(input) {
            Ok(input) => self.tool.run(input, ctx).await,
            Err(error) => error,
        }
    }

    async fn preview(&self, input: &serde_json::Value, ctx: &ToolContext) -> Option<ApprovalPreview> {
        let input = parse_input::<T::Input>(input.clone()).ok()?;
        self.tool.preview(input, ctx).await
    }

    fn needs(&self, input: &serde_json::Value) -> Needs {
        match parse_input::<T::Input>(input.clone()) {
            Ok(input) => self.tool.needs(&input),
            Err(_) => Needs::unreadable(),
        }
    }
}
