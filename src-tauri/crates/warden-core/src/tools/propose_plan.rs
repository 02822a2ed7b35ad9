//! `propose_plan`: how a plan-mode turn ends. The model hands its plan to the user, who edits and
//! approves it in a card (`chat:plan`); the turn stops there. Offered only in plan mode (the runner
//! keeps it out of every other turn); it changes nothing.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use crate::tool::{ToolContext, ToolOutput, TypedTool};

/// The name the model calls it by.
pub const PROPOSE_PLAN: &str = "propose_plan";
/// The most steps a plan has, and the longest a step may be.
pub const MAX_STEPS: usize = 50;
pub const MAX_STEP: usize = 500;
/// The longest a plan's text may be.
pub const MAX_PLAN: usize = 32 * 1024;

/// Propose your plan to the user, once you have read enough to know what to do. The user edits
/// and approves it; only then does the work start. Call it last: nothing runs after it in this
/// turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProposePlanInput {
    /// The plan in markdown: what you found, what you will change and why, and how it will be
    /// checked.
    pub plan: String,
    /// The steps of the plan in order, a short line each; they become the task list.
    pub steps: Vec<String>,
}

impl ProposePlanInput {
    /// Why the input cannot be a plan, if it cannot.
    pub fn problem(&self) -> Option<String> {
        if self.plan.trim().is_empty() {
            return Some("the plan is empty".to_owned());
        }
        if self.plan.len() > MAX_PLAN {
            return Some(format!("the plan is longer than {} KiB", MAX_PLAN / 1024));
        }
        if self.steps.is_empty() || self.steps.len() > MAX_STEPS {
            return Some(format!("a plan has 1 to {MAX_STEPS} steps"));
        }
        if self.steps.iter().any(|s| s.trim().is_empty() || s.chars().count() > MAX_STEP) {
            return Some(format!("each step is one line of at most {MAX_STEP} characters"));
        }
        None
    }
}

pub struct ProposePlanTool;

#[async_trait]
impl TypedTool for ProposePlanTool {
    type Input = ProposePlanInput;
    const NAME: &'static str = PROPOSE_PLAN;
    const LABEL: &'static str = "Propose a plan";
    const CATEGORY: ToolCategory = ToolCategory::System;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = false;

    async fn run(&self, input: ProposePlanInput, _ctx: ToolContext) -> ToolOutput {
        if let Some(problem) = input.problem() {
            return ToolOutput::error(ToolErrorCode::ValidationError, format!("Not a plan: {problem}."));
        }
        ToolOutput::success(format!(
            "The plan ({} steps) is shown to the user, who may edit and approve it. Stop here: the work \
             starts when they approve.",
            input.steps.len()
        ))
    }
}
