"""A thread's steps and earlier exchanges as JSON-ready dicts, and back (saved runs)."""

from __future__ import annotations

from typing import Any

from fsnb.protocol import Action, Exchange, ToolOutcome, Turn


def turn_to_dict(turn: Turn) -> dict[str, Any]:
    """One step: the action, the text sent back, the tool's outcome and what was cut."""
    outcome = turn.outcome
    return {
        "action": turn.action.model_dump(mode="json", exclude_defaults=True),
        "result": turn.result,
        "outcome": None
        if outcome is None
        else {"text": outcome.text, "ok": outcome.ok, "data": outcome.data},
        "cut": turn.cut,
    }


def turn_from_dict(data: dict[str, Any]) -> Turn:
    outcome = data.get("outcome")
    return Turn(
        Action.model_validate(data["action"]),
        str(data.get("result", "")),
        None if outcome is None else ToolOutcome(**outcome),
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
