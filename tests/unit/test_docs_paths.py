"""The docs cite only files that are in the repository (docs/architecture.md is the map): every
backquoted path with a directory and a file extension in README.md and docs/*.md exists, from the root,
from frontend/ or from frontend/src/ (the frontend docs cite `features/…` from there). Files a
running exchange writes (`var/…`) are not in the repository and are not checked; a path out of the
repository (`../…`) is refused even where this machine has it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"`([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*\.(?:py|ts|tsx|md|toml|vy|yaml|json|sh|po|pot|css))`")
BASES = (ROOT, ROOT / "frontend", ROOT / "frontend" / "src", ROOT / "docs")


def cited_paths(text: str) -> set[str]:
    return {path for path in CITED.findall(text) if not path.startswith("var/")}


def test_every_file_the_docs_cite_is_in_the_repository() -> None:
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = [
        f"{doc.relative_to(ROOT)}: {path}"
        for doc in documents
        for path in sorted(cited_paths(doc.read_text()))
        if path.startswith("../") or not any((base / path).exists() for base in BASES)  # nothing outside it
    ]
    assert missing == [], "\n".join(missing)
    assert (ROOT / "docs" / "architecture.md").exists()


def test_the_check_finds_a_cited_path() -> None:
    text = "see `store/ledger.py` and `var/keys/xpubs.json`, not `ledger`, and `../elsewhere/notes.md`"
    assert cited_paths(text) == {"store/ledger.py", "../elsewhere/notes.md"}
