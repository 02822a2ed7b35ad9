//! The request side of the text tool protocol: tool descriptions in the system prompt, and tool
//! calls and results in the history rewritten as the text the model would have written and read.

use warden_protocol::{ContentBlock, Message, ToolDefinition, ToolUse};

use crate::provider::{ChatRequest, ToolChoice};

pub(crate) fn rewrite(mut request: ChatRequest) -> ChatRequest {
    let tools = std::mem::take(&mut request.tools);
    // With no tool calls allowed the model is not told how to make them.
    if !tools.is_empty() && request.tool_choice == ToolChoice::Auto {
        let instructions = describe_tools(&tools);
        request.system = Some(match request.system.take().filter(|s| !s.trim().is_empty()) {
            Some(system) => format!("{system}\n\n{instructions}"),
            None => instructions,
        });
    }
    request.messages = request.messages.into_iter().map(render_message).collect();
    request
}

fn describe_tools(tools: &[ToolDefinition]) -> String {
    let mut text = String::from(
        "# Tools\n\nYou can call tools. To call one, write a fenced block tagged `tool` containing one JSON \
         object with the tool's name and its arguments, exactly like this:\n\n```tool\n\
         {\"name\": \"<tool name>\", \"args\": {<arguments as JSON>}}\n```\n\n\
         Write one block per call; you may write several blocks in one answer. After your blocks, stop: \
         the results come back in the next message. Never invent results. When no tool is needed, answer \
         normally without a block.\n\nAvailable tools:\n",
    );
    for tool in tools {
        text.push_str(&format!(
            "\n## {}\n{}\nArguments (JSON Schema): {}\n",
            tool.name, tool.description, tool.input_schema
        ));
    }
    text
}

fn render_message(message: Message) -> Message {
    let mut content: Vec<ContentBlock> = Vec::new();
    for block in message.content {
        let rendered = match block {
            // A block that could not be read goes back exactly as the model wrote it: its failed
            // result says what is wrong with that text, not with a tidied call it never made.
            ContentBlock::ToolUse(ToolUse { written: Some(written), .. }) => {
                ContentBlock::Text { text: written }
            }
            ContentBlock::ToolUse(call) => {
                let name = serde_json::Value::String(call.name);
                ContentBlock::Text {
                    text: format!("```tool\n{{\"name\": {name}, \"args\": {}}}\n```", call.input),
                }
            }
            ContentBlock::ToolResult(result) => {
                let text = if result.is_error {
                    format!("Tool `{}` failed (error):\n{}", result.tool_name, result.content)
                } else {
                    format!("Result of tool `{}`:\n{}", result.tool_name, result.content)
                };
                ContentBlock::Text { text }
            }
            other => other,
        };
        // Adjacent text pieces become one, separated so the model sees distinct parts.
        match (content.last_mut(), rendered) {
            (Some(ContentBlock::Text { text: previous }), ContentBlock::Text { text }) => {
                previous.push_str("\n\n");
                previous.push_str(&text);
            }
            (_, rendered) => content.push(rendered),
        }
    }
    Message { role: message.role, content }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use warden_protocol::{DangerLevel, Role, ToolCategory, ToolResultBlock, ToolUse};

    #[test]
    fn tools_move_into_the_prompt_and_history_becomes_text() {
        let request = ChatRequest {
            system: Some("Be brief.".into()),
            tools: vec![ToolDefinition {
                name: "file_read".into(),
                description: "Read a file.".into(),
                input_schema: json!({"type": "object"}),
                category: ToolCategory::FileRead,
                danger: DangerLevel::Safe,
                parallel: true,
                conversation_only: false,
            }],
            messages: vec![
                Message::user_text("read it"),
                Message {
                    role: Role::Assistant,
                    content: vec![
                        ContentBlock::Text { text: "Sure.".into() },
                        ContentBlock::ToolUse(ToolUse {
                            id: "call_1".into(),
                            name: "file_read".into(),
                            input: json!({"path": "a"}),
                            raw_arguments: None,
                            written: None,
                        }),
                    ],
                },
                Message {
                    role: Role::User,
                    content: vec![ContentBlock::ToolResult(ToolResultBlock {
                        tool_use_id: "call_1".into(),
                        report: None,
                        tool_name: "file_read".into(),
                        content: "no such file".into(),
                        is_error: true,
                        code: None,
                        images: Vec::new(),
                    })],
                },
            ],
            ..ChatRequest::default()
        };
        let rewritten = rewrite(request);
        assert!(rewritten.tools.is_empty());
        let system = rewritten.system.unwrap();
        assert!(
            system.starts_with("Be brief.") && system.contains("## file_read") && system.contains("```tool")
        );
        assert_eq!(
            rewritten.messages[1].content,
            vec![ContentBlock::Text {
                text: "Sure.\n\n```tool\n{\"name\": \"file_read\", \"args\": {\"path\":\"a\"}}\n```".into()
            }]
        );
        assert_eq!(rewritten.messages[2].text(), "Tool `file_read` failed (error):\nno such file");
    }

    #[test]
    fn a_block_that_could_not_be_read_goes_back_as_written() {
        let written = "```tool\n{\"name\": \"file_read\", \"args\": {\"path\": }\n```";
        let request = ChatRequest {
            messages: vec![Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Text { text: "Reading.".into() },
                    ContentBlock::ToolUse(ToolUse {
                        id: "call_1".into(),
                        name: "file_read".into(),
                        input: json!({}),
                        raw_arguments: None,
                        written: Some(written.into()),
                    }),
                ],
            }],
            ..ChatRequest::default()
        };
        let rewritten = rewrite(request);
        assert_eq!(rewritten.messages[0].text(), format!("Reading.\n\n{written}"));
    }
}
