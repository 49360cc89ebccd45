"""Replay a scripted list of Actions: the test double for an LLM."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from fsnb.protocol import Action, Conversation, LLMError, Notify, Reply


class ReplayLLM:
    """Returns the queued actions in order; `history` keeps a snapshot of each request."""

    backend = "replay"

    def __init__(
        self, actions: Iterable[Action | dict[str, Any]] = (), model: str = "script"
    ) -> None:
        self.model = model
        self.queue: list[Action] = []
        self.history: list[Conversation] = []
        self.enqueue(*actions)

    def enqueue(self, *actions: Action | dict[str, Any]) -> None:
        self.queue.extend(a if isinstance(a, Action) else Action.model_validate(a) for a in actions)

    def next_action(self, conversation: Conversation, notify: Notify) -> Reply:
        self.history.append(replace(conversation, turns=list(conversation.turns)))
        if not self.queue:
            msg = "the replay script has no more actions"
            raise LLMError(msg)
        return Reply(self.queue.pop(0))
