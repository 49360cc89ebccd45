"""A thread's steps and earlier exchanges as JSON-ready dicts, and back (saved runs).

A tool's payload is saved as its plain data beside its type's tag (`fsnb.tools.payloads`)
and rebuilt from them; a run saved before the tags has its payload rebuilt from the data.
"""

from __future__ import annotations

from typing import Any

from fsnb.protocol import Action, Exchange, ToolOutcome, Turn
from fsnb.tools import payloads


def outcome_to_dict(outcome: ToolOutcome[Any]) -> dict[str, Any]:
    """A tool's outcome: its text, whether it worked, its payload's data and type tag."""
    saved = {"text": outcome.text, "ok": outcome.ok, "data": outcome.data}
    tag = payloads.tag(outcome.payload)
    return saved | {"payload": tag} if tag else saved


def outcome_from_dict(data: dict[str, Any]) -> ToolOutcome[Any]:
    payload = payloads.load(dict(data.get("data") or {}), data.get("payload"))
    return ToolOutcome(str(data.get("text", "")), bool(data.get("ok", True)), payload)


def turn_to_dict(turn: Turn) -> dict[str, Any]:
    """One step: the action, the text sent back, the tool's outcome and what was cut."""
    outcome = turn.outcome
    return {
        "action": turn.action.model_dump(mode="json", exclude_defaults=True),
        "result": turn.result,
        "outcome": None if outcome is None else outcome_to_dict(outcome),
        "cut": turn.cut,
    }


def turn_from_dict(data: dict[str, Any]) -> Turn:
    outcome = data.get("outcome")
    return Turn(
        Action.model_validate(data["action"]),
        str(data.get("result", "")),
        None if outcome is None else outcome_from_dict(outcome),
        int(data.get("cut", 0)),
    )


def exchange_to_dict(exchange: Exchange) -> dict[str, Any]:
    return {
        "question": exchange.question,
        "answer": exchange.answer,
        "turns": [turn_to_dict(t) for t in exchange.turns],
    }


def exchange_from_dict(data: dict[str, Any]) -> Exchange:
    turns = [turn_from_dict(t) for t in data.get("turns", [])]
    return Exchange(str(data["question"]), str(data.get("answer", "")), turns)
