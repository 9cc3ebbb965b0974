"""Imports point down (docs/architecture.md "Floors"): serve → actors → store → config, and among the
actor kinds no two import each other, directly or round a loop. Every import counts, also the ones
made inside a function, so moving an upward import into a function does not hide it."""

from __future__ import annotations

import ast
from collections import defaultdict
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLOORS = {"config": 0, "store": 1, "actors": 2, "serve": 3}


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``path``; ``from a import b`` also yields ``a.b``, so
    a submodule imported by name is seen."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def modules(floor: str) -> list[Path]:
    return sorted((ROOT / floor).rglob("*.py"))


def test_no_module_imports_a_floor_above_its_own() -> None:
    upward = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for floor, level in FLOORS.items()
        for path in modules(floor)
        for line, module in imports(path)
        if FLOORS.get(module.split(".")[0], -1) > level
    ]
    assert upward == [], "\n".join(upward)


def actor_unit(module: str) -> str | None:
    """The actor kind (or shared actors module) ``module`` belongs to: actors.pair.actor → pair,
    actors.engine → engine; None outside actors or for the package itself."""
    parts = module.split(".")
    if parts[0] != "actors" or len(parts) < 2:
        return None
    unit = parts[1]
    return unit if (ROOT / "actors" / unit).is_dir() or (ROOT / "actors" / f"{unit}.py").exists() else None


def test_the_actor_kinds_import_each_other_without_a_loop() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for path in modules("actors"):
        source = actor_unit(".".join(path.relative_to(ROOT).with_suffix("").parts))
        if source is None:
            continue
        for _, module in imports(path):
            target = actor_unit(module)
            if target is not None and target != source:
                graph[source].add(target)
    assert graph["engine"] and graph["pair"], "the graph is read from the tree: it cannot be empty"
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as loop:
        raise AssertionError(f"actor modules import each other in a loop: {' → '.join(loop.args[1])}") from None


def test_the_check_sees_an_upward_import_inside_a_function(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from serve.app import build\n    import actors.engine\n")
    assert imports(sample) == [(2, "serve.app"), (2, "serve.app.build"), (3, "actors.engine")]
