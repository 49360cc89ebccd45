"""How an `ExplorePanel` shows itself: the live widget view, and the static record of its run.

The record (the answer, its citations with their evidence images, and a trace summary as
HTML, markdown and text) is what a saved or exported notebook shows where no widget front
end runs (GitHub, nbconvert, papermill): it is deterministic, carries no timings or
absolute paths, and is updated (by its display id) when the run ends.

Where the widget renders, the record under it would repeat the panel: the panel's front
end hides it. The record's root carries `data-fsnb-key`, a hash of the question and the
folder that the front end computes too, and the panel hides the first record with its key
that follows it in the page, whatever the front end's markup (JupyterLab, VS Code, Colab):
no CSS class of a front end is needed. The widget view's text/plain is empty, so a page
that cannot show the widget shows no stray line of its own above the record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fsnb.notebook.display import Rendering

if TYPE_CHECKING:
    from fsnb.agent.result import ExplorationResult


def record_key(task: str, folder: str) -> str:
    """32-bit FNV-1a of the question and folder (UTF-8), as widget.js computes it."""
    value = 0x811C9DC5
    for byte in f"{task}\n{folder}".encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


class Displays:
    """The displays of a panel (mixed into `ExplorePanel`, before `anywidget.AnyWidget`)."""

    task: str
    folder: str
    status: str
    error: str
    usage: dict[str, Any]
    reveal_secrets: bool
    evidence_images: bool | None
    _result: ExplorationResult | None
    _root: str | None
    _record_id: str
    _record_shown: bool

    def rendering(self) -> Rendering:
        """The run's rendering, with the evidence images of its verified PDF citations
        unless they are turned off (`evidence_images`, `FSNB_EVIDENCE_IMAGES=0`)."""
        from fsnb.notebook.evidence import images_enabled, record_images

        result, images = self._result, {}
        if result is not None and result.ok and images_enabled(self.evidence_images):
            images = record_images(self._root, result.citations)
        return Rendering(
            self.task,
            self.folder,
            self.status,
            result,
            self.error,
            reveal_secrets=self.reveal_secrets,
            images=images,
        )

    def record(self) -> tuple[dict[str, str], dict[str, Any]]:
        """The static record of the run: deterministic text/html, text/markdown and
        text/plain of the answer, its citations and a trace summary; timings in metadata."""
        bundle = self.rendering().bundle()
        key = record_key(self.task, self.folder)
        bundle["text/html"] = (
            f"<div class='fsnb-record' data-fsnb-key='{key}'>{bundle['text/html']}</div>"
        )
        usage = self._result.usage.to_dict() if self._result else self.usage
        keys = ("wall_s", "llm_calls", "total_tokens", "cost_usd")
        return bundle, {"fsnb": {k: usage[k] for k in keys if k in usage}}

    def display_view(self) -> None:
        """Display the live panel alone."""
        from IPython.display import display

        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)

    def display_record(self) -> None:
        """Display the static record; the panel updates it (wherever shown) when the run ends.
        In a live front end the panel hides the record shown under it."""
        from IPython.display import display

        data, metadata = self.record()
        display(data, metadata=metadata, raw=True, display_id=self._record_id)
        self._record_shown = True

    def _update_record(self) -> None:
        if self._record_shown:
            from IPython.display import update_display

            data, metadata = self.record()
            update_display(data, metadata=metadata, raw=True, display_id=self._record_id)

    def _ipython_display_(self) -> None:
        """The live panel, then the static record for saved and exported notebooks."""
        self.display_view()
        self.display_record()

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The widget view, with an empty text/plain: where widgets do not render, the
        record (displayed beside it) says everything, and nothing repeats it."""
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        return {**data, "text/plain": ""}, metadata or {}
