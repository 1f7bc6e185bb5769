"""The report of one verification: three checks and the weakest-link verdict."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Report", "VERDICTS"]

VERDICTS = ("proved", "certified", "supported", "failed")


@dataclass(frozen=True)
class Report:
    name: str
    reference: str
    source: str
    kind: str  # theorem | axiom
    verdict: str  # proved | certified | supported | failed | axiom
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.verdict != "failed"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __repr__(self) -> str:
        c = self.checks
        return (f"<Report {self.name} {self.reference}: {self.verdict} — symbolic {c['symbolic']['status']}, "
                f"numeric {c['numeric']['status']}, property {c['property']['status']}, {self.seconds:.2f}s>")

    def _repr_markdown_(self) -> str:
        rows = "\n".join(f"| {k} | {v['status']} | {v.get('summary', '')} |" for k, v in self.checks.items())
        return f"**{self.name}** ({self.reference}) — **{self.verdict}**\n\n| check | status | what |\n|---|---|---|\n{rows}"
