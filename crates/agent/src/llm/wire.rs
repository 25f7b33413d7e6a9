//! Our conversation in the Chat Completions wire format, and back.
//!
//! Requests are built from async-openai's types, so the JSON is exactly what OpenAI's API
//! documents. Responses are read leniently: local servers (Ollama, vLLM, llama.cpp) omit
//! fields OpenAI always sends (`created`, `object`, a tool call's `type`), so a strict
//! parse would reject answers we can use. We try async-openai's response type first and
//! fall back to reading the few fields we need.

use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls,
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionTool, ChatCompletionToolChoiceOption,
    ChatCompletionTools, CreateChatCompletionRequest, CreateChatCompletionResponse, FunctionCall,
    FunctionObject, ToolChoiceOptions,
};

use crate::policy::{Message, ToolCall, ToolSpec, Turn, TurnUsage};

/// How the completion cap is sent: `max_tokens` (understood by every compatible server) or
/// `max_completion_tokens` (required by OpenAI's reasoning models, which reject the other).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapField {
    /// `max_tokens`.
    MaxTokens,
    /// `max_completion_tokens`.
    MaxCompletionTokens,
}

impl CapField {
    /// The field OpenAI's API wants for `model`.
    pub fn for_model(model: &str) -> Self {
        let m = model.rsplit('/').next().unwrap_or(model);
        if ["o1", "o3", "o4", "gpt-5"].iter().any(|p| m.starts_with(p)) {
            CapField::MaxCompletionTokens
        } else {
            CapField::MaxTokens
        }
    }
}

/// The request body for one turn.
pub fn request_body(
    model: &str,
    messages: &[Message],
    tools: &[ToolSpec],
    max_completion_tokens: u64,
    cap_field: CapField,
    final_turn: bool,
) -> serde_json::Value {
    let cap = u32::try_from(max_completion_tokens).unwrap_or(u32::MAX);
    let mut req = CreateChatCompletionRequest {
        model: model.to_string(),
        messages: messages.iter().map(to_wire).collect(),
        tools: Some(
            tools
                .iter()
                .map(|t| {
                    ChatCompletionTools::Function(ChatCompletionTool {
                        function: FunctionObject {
                            name: t.name.clone(),
                            description: Some(t.description.clone()),
                            parameters: Some(t.parameters.clone()),
                            strict: None,
                        },
                    })
                })
                .collect(),
        ),
        // On the final turn only `submit` is offered, and the model must call it.
        tool_choice: Some(ChatCompletionToolChoiceOption::Mode(if final_turn {
            ToolChoiceOptions::Required
        } else {
            ToolChoiceOptions::Auto
        })),
        temperature: Some(0.0),
        ..Default::default()
    };
    match cap_field {
        CapField::MaxTokens => {
            #[allow(deprecated)]
            {
                req.max_tokens = Some(cap);
            }
        }
        CapField::MaxCompletionTokens => req.max_completion_tokens = Some(cap),
    }
    serde_json::to_value(&req).unwrap_or(serde_json::Value::Null)
}

fn to_wire(m: &Message) -> ChatCompletionRequestMessage {
    match m {
        Message::System { content } => {
            ChatCompletionRequestMessage::System(ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(content.clone()),
                name: None,
            })
        }
        Message::User { content } => {
            ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
                content: ChatCompletionRequestUserMessageContent::Text(content.clone()),
                name: None,
            })
        }
        Message::Assistant {
            content,
            tool_calls,
        } => {
            #[allow(deprecated)]
            let msg = ChatCompletionRequestAssistantMessage {
                content: content
                    .clone()
                    .map(ChatCompletionRequestAssistantMessageContent::Text),
                tool_calls: if tool_calls.is_empty() {
                    None
                } else {
                    Some(
                        tool_calls
                            .iter()
                            .map(|c| {
                                ChatCompletionMessageToolCalls::Function(
                                    ChatCompletionMessageToolCall {
                                        id: c.id.clone(),
                                        function: FunctionCall {
                                            name: c.name.clone(),
                                            arguments: c.arguments.clone(),
                                        },
                                    },
                                )
                            })
                            .collect(),
                    )
                },
                ..Default::default()
            };
            ChatCompletionRequestMessage::Assistant(msg)
        }
        Message::Tool {
            call_id, content, ..
        } => ChatCompletionRequestMessage::Tool(ChatCompletionRequestToolMessage {
            content: ChatCompletionRequestToolMessageContent::Text(content.clone()),
            tool_call_id: call_id.clone(),
        }),
    }
}

/// Reads a response body into a [`Turn`]; `Err` says what was wrong with it.
pub fn parse_response(body: &serde_json::Value) -> Result<Turn, String> {
    if let Ok(typed) = serde_json::from_value::<CreateChatCompletionResponse>(body.clone()) {
        let Some(choice) = typed.choices.into_iter().next() else {
            return Err("the response has no choices".into());
        };
        let tool_calls = choice
            .message
            .tool_calls
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                ChatCompletionMessageToolCalls::Function(f) => Some(ToolCall {
                    id: if f.id.is_empty() {
                        format!("call_{i}")
                    } else {
                        f.id
                    },
                    name: f.function.name,
                    arguments: f.function.arguments,
                }),
                ChatCompletionMessageToolCalls::Custom(_) => None,
            })
            .collect();
        return Ok(Turn {
            content: choice.message.content.filter(|c| !c.trim().is_empty()),
            tool_calls,
            usage: typed.usage.map(|u| TurnUsage {
                prompt_tokens: u64::from(u.prompt_tokens),
                completion_tokens: u64::from(u.completion_tokens),
            }),
        });
    }
    lenient(body)
}

fn lenient(body: &serde_json::Value) -> Result<Turn, String> {
    let message = body
        .pointer("/choices/0/message")
        .ok_or("the response has no choices[0].message")?;
    let content = message
        .get("content")
        .and_then(|c| c.as_str())
        .filter(|c| !c.trim().is_empty())
        .map(str::to_string);
    let mut tool_calls = Vec::new();
    if let Some(calls) = message.get("tool_calls").and_then(|c| c.as_array()) {
        for (i, c) in calls.iter().enumerate() {
            let Some(f) = c.get("function") else { continue };
            let name = f
                .get("name")
                .and_then(|n| n.as_str())
                .unwrap_or_default()
                .to_string();
            // Some servers send the arguments as an object instead of a JSON string.
            let arguments = match f.get("arguments") {
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(serde_json::Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            let id = c
                .get("id")
                .and_then(|v| v.as_str())
                .filter(|s| !s.is_empty())
                .map_or_else(|| format!("call_{i}"), str::to_string);
            tool_calls.push(ToolCall {
                id,
                name,
                arguments,
            });
        }
    }
    let usage = body.get("usage").and_then(|u| {
        Some(TurnUsage {
            prompt_tokens: u.get("prompt_tokens")?.as_u64()?,
            completion_tokens: u
                .get("completion_tokens")
                .and_then(|c| c.as_u64())
                .unwrap_or(0),
        })
    });
    Ok(Turn {
        content,
        tool_calls,
        usage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_reads_a_local_server_reply() {
        let body = serde_json::json!({
            "choices": [{"message": {"role": "assistant", "content": "",
                "tool_calls": [{"function": {"name": "read", "arguments": {"file": "a.go"}}}]}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3}
        });
        let t = parse_response(&body).unwrap();
        assert_eq!(t.content, None);
        assert_eq!(t.tool_calls.len(), 1);
        assert_eq!(t.tool_calls[0].id, "call_0");
        assert_eq!(t.tool_calls[0].arguments, r#"{"file":"a.go"}"#);
        assert_eq!(
            t.usage,
            Some(TurnUsage {
                prompt_tokens: 10,
                completion_tokens: 3
            })
        );
    }

    #[test]
    fn cap_field_by_model() {
        assert_eq!(
            CapField::for_model("o3-mini"),
            CapField::MaxCompletionTokens
        );
        assert_eq!(
            CapField::for_model("gpt-5-mini"),
            CapField::MaxCompletionTokens
        );
        assert_eq!(CapField::for_model("gpt-4o-mini"), CapField::MaxTokens);
        assert_eq!(CapField::for_model("qwen2.5-coder"), CapField::MaxTokens);
    }
}
