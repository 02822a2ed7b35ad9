//! `skill`: the model loads a skill's instructions (and the files beside them) when it decides to
//! use one. The system prompt names the skills and says what each is for; nothing of a skill's body
//! reaches the model before this call. Offered only to a session that has skills.

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use crate::conventions::skill_files;
use crate::conventions::skills::{Skills, SKILL_FILE};
use crate::tool::fs_util::blocking;
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// The name the model calls it by.
pub const SKILL: &str = "skill";

/// Read a skill listed in the system prompt: its instructions and the names of the files in its
/// folder; with `file`, one of those files. Call it before you do work a skill's description
/// matches.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillInput {
    /// The skill's name, as the system prompt lists it.
    pub name: String,
    /// A file of the skill's folder, relative to it, as the instructions' file list names it.
    /// Leave it out for the instructions.
    #[serde(default)]
    pub file: Option<String>,
}

pub struct SkillTool {
    skills: Arc<Skills>,
}

impl SkillTool {
    pub fn new(skills: Arc<Skills>) -> Self {
        Self { skills }
    }
}

#[async_trait]
impl TypedTool for SkillTool {
    type Input = SkillInput;
    const NAME: &'static str = SKILL;
    const LABEL: &'static str = "Read a skill";
    const CATEGORY: ToolCategory = ToolCategory::FileRead;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    /// A project's skill is read as `file_read` reads the project, so the rules on its paths apply.
    fn needs(&self, input: &SkillInput) -> Needs {
        let skill = self.skills.get(&input.name);
        let file = input.file.as_deref().unwrap_or(SKILL_FILE);
        match skill.and_then(|skill| skill_files::project_path(skill, file)) {
            Some(path) => FileAccess::read(path),
            None => Needs::default(),
        }
    }

    async fn run(&self, input: SkillInput, ctx: ToolContext) -> ToolOutput {
        let skills = self.skills.clone();
        blocking(move || {
            let Some(skill) = skills.get(&input.name) else {
                let names: Vec<&str> = skills.list.iter().map(|s| s.name.as_str()).collect();
                return ToolOutput::error(
                    ToolErrorCode::ValidationError,
                    format!("there is no skill named `{}`; the skills are: {}", input.name, names.join(", ")),
                );
            };
            let answer = match &input.file {
                Some(file) => skill_files::read(skill, file, &ctx.workspace),
                None => skill_files::body(skill, &ctx.workspace).map(|body| {
                    let files = skill_files::list(skill, &ctx.workspace);
                    if files.is_empty() {
                        body
                    } else {
                        format!(
                            "{body}\n\nFiles in this skill's folder (read one with `skill` and `file`):\n{}",
                            files.iter().map(|f| format!("- {f}")).collect::<Vec<_>>().join("\n")
                        )
                    }
                }),
            };
            match answer {
                Ok(text) => ToolOutput::success(text)
                    .with_metadata("skill", skill.name.clone())
                    .with_metadata("origin", skill.origin.as_str())
                    .with_metadata("file", input.file.clone().unwrap_or_else(|| SKILL_FILE.to_owned())),
                Err(reason) => ToolOutput::error(
                    ToolErrorCode::PermissionDenied,
                    format!("the skill `{}` could not be read: {reason}", skill.name),
                ),
            }
        })
        .await
    }
}
