"""Paraphrased questions: an original question asked again in another user's words.

A paraphrase asks for exactly the facts of its original, so it copies the original's
level, facts, sources (and expected answer) and names it in ``paraphrase_of``. They were
written before the offline answerer was run on them.
"""

from __future__ import annotations

import copy

from .questions import Question

#: (paraphrase id, original id, the paraphrase's wording)
Rewording = tuple[str, str, str]


def with_paraphrases(
    questions: list[Question], rewordings: tuple[Rewording, ...]
) -> list[Question]:
    """``questions`` followed by one paraphrase per rewording, in the rewordings' order."""
    by_id = {item["id"]: item for item in questions}
    out = list(questions)
    for pid, original, text in rewordings:
        if pid in by_id:
            raise ValueError(f"duplicate question id {pid}")
        rest = copy.deepcopy(by_id[original])
        item: Question = {
            "id": pid,
            "question": text,
            "level": rest["level"],
            "paraphrase_of": original,
        }
        item.update({k: v for k, v in rest.items() if k not in item})
        by_id[pid] = item
        out.append(item)
    return out
