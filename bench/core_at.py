"""The matching core (``actors/book``) as an earlier commit had it, loaded from git beside today's.

A speed-up of the core is judged against the core it replaces, in the same process and on the same
stream, so the machine's load moves both figures alike (``bench/book_bench.py``), and its behaviour
is checked against that core fill for fill (``tests/unit/test_book_vs_reference.py``). Nothing is
copied into the repository: ``git show <commit>:actors/book/<file>`` is written into a temporary
package whose imports of ``actors.book`` are renamed to it, and the package is imported from there.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
CORE_DIR = "actors/book"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def resolve(commit: str) -> str:
    """The full hash of ``commit`` (a hash, a branch, ``HEAD~1``); ``ValueError`` if git does not know it."""
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}").strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise ValueError(f"git does not know commit {commit!r} here ({ROOT})") from exc


def load_core(commit: str) -> ModuleType:
    """The package ``actors.book`` of ``commit``, imported under a name of its own (``core_<hash>``).

    It exports what that commit's ``actors/book/__init__.py`` does (``OrderBook``, ``Order``,
    ``Side``, ``Kind``...); its ``Order`` is its own class, so orders for it are built from it.
    """
    full = resolve(commit)
    name = f"core_{full[:12]}"
    if name in sys.modules:
        return sys.modules[name]
    files = [f for f in _git("ls-tree", "--name-only", f"{full}:{CORE_DIR}").split() if f.endswith(".py")]
    if "__init__.py" not in files:
        raise ValueError(f"commit {full[:12]} has no {CORE_DIR}/__init__.py")
    package = Path(tempfile.mkdtemp(prefix="core-at-")) / name
    package.mkdir()
    for file in files:
        source = _git("show", f"{full}:{CORE_DIR}/{file}")
        (package / file).write_text(source.replace("actors.book", name))
    sys.path.insert(0, str(package.parent))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(package.parent))
