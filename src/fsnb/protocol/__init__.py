"""The agent protocol: the Action an LLM chooses, the conversation it sees, the reply it
returns, and the outcome of a tool. Both `fsnb.agent` and `fsnb.llm` build on it; it
builds on nothing in fsnb but its errors."""

from fsnb.protocol.action import Action, ActionKind, CitedSource, ToolArg
from fsnb.protocol.conversation import (
    LLM,
    Conversation,
    Documents,
    Exchange,
    JsonReply,
    LLMError,
    Message,
    MissingKey,
    Notify,
    Reply,
    StructuredLLM,
    Turn,
)
from fsnb.protocol.model import ChatModel, Completion
from fsnb.protocol.outcome import ToolOutcome
from fsnb.protocol.usage import Tokens

__all__ = [
    "LLM",
    "Action",
    "ActionKind",
    "ChatModel",
    "CitedSource",
    "Completion",
    "Conversation",
    "Documents",
    "Exchange",
    "JsonReply",
    "LLMError",
    "Message",
    "MissingKey",
    "Notify",
    "Reply",
    "StructuredLLM",
    "Tokens",
    "ToolArg",
    "ToolOutcome",
    "Turn",
]
