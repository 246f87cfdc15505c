"""Tree-of-Error (StepMathAgent): where the first mistakes were made and what they corrupted.

Nodes are incorrect and meaningless steps; an edge i -> j when step j depends on step i; roots are
incorrect steps that no other error feeds; chains are all root-to-leaf paths (docs/architecture.md 4.4). The
tree is built and validated in code whatever produced the labels and dependencies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.schema import StepLabel

MAX_CHAINS = 200


@dataclass(frozen=True)
class ErrorTree:
    """Steps are 1-based throughout, as shown to users."""

    roots: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]
    chains: tuple[tuple[int, ...], ...]

    def formatted(self) -> str:
        """Chains as StepMathAgent prints them: "(3)-(4)-(6), (5)-(6)"."""
        return ", ".join("-".join(f"({i})" for i in chain) for chain in self.chains)


@dataclass
class TreeResult:
    """The error tree with the labels and dependencies it was built from, and what was cut."""

    tree: ErrorTree
    labels: list[StepLabel]
    depends_on: list[list[int]]
    warnings: list[str] = field(default_factory=list)


def _clean_dependencies(
    depends_on: Sequence[Sequence[int]], n: int, warnings: list[str]
) -> list[list[int]]:
    """Keep only references to earlier, existing steps: a dependency cannot point forward."""
    cleaned = []
    for j in range(1, n + 1):
        deps = depends_on[j - 1] if j - 1 < len(depends_on) else []
        keep = sorted({d for d in deps if isinstance(d, int) and 1 <= d < j})
        dropped = sorted(set(deps) - set(keep))
        if dropped:
            warnings.append(f"step {j}: dropped dependencies on {dropped} (not earlier steps)")
        cleaned.append(keep)
    return cleaned


def _reachable_from_roots(labels: Sequence[StepLabel], deps: Sequence[Sequence[int]]) -> set[int]:
    """Error nodes connected to an incorrect step through a chain of error nodes."""
    reached: set[int] = set()
    for j, label in enumerate(labels, 1):
        if label == "incorrect" or (
            label == "meaningless" and any(d in reached for d in deps[j - 1])
        ):
            reached.add(j)
    return reached


def build_tree(labels: Sequence[StepLabel], depends_on: Sequence[Sequence[int]]) -> TreeResult:
    """Validate labels and dependencies, then build the Tree-of-Error.

    A meaningless step must be built on an error. If it names no error it depends on, it is linked
    to the latest earlier incorrect or meaningless step (the dependency was left implicit); if no
    error precedes it, it is relabelled correct. Each change is reported as a warning.
    """
    n = len(labels)
    warnings: list[str] = []
    fixed_labels: list[StepLabel] = list(labels)
    deps = _clean_dependencies(depends_on, n, warnings)
    for j in range(1, n + 1):
        if fixed_labels[j - 1] != "meaningless":
            continue
        reached = _reachable_from_roots(fixed_labels[:j], deps[:j])
        if j in reached:
            continue
        earlier = [i for i in range(1, j) if i in reached]
        if earlier:
            deps[j - 1] = sorted(set(deps[j - 1]) | {earlier[-1]})
            warnings.append(
                f"step {j}: meaningless without a named error; linked to step {earlier[-1]}"
            )
        else:
            fixed_labels[j - 1] = "correct"
            warnings.append(
                f"step {j}: labelled meaningless but no earlier error; relabelled correct"
            )

    nodes = {j for j, label in enumerate(fixed_labels, 1) if label in ("incorrect", "meaningless")}
    edges = tuple((i, j) for j in sorted(nodes) for i in deps[j - 1] if i in nodes)
    fed = {j for _, j in edges}
    roots = tuple(j for j in sorted(nodes) if fixed_labels[j - 1] == "incorrect" and j not in fed)
    chains = _chains(roots, edges, warnings)
    return TreeResult(ErrorTree(roots, edges, chains), fixed_labels, deps, warnings)


def _chains(
    roots: Sequence[int], edges: Sequence[tuple[int, int]], warnings: list[str]
) -> tuple[tuple[int, ...], ...]:
    children: dict[int, list[int]] = {}
    for i, j in edges:
        children.setdefault(i, []).append(j)
    chains: list[tuple[int, ...]] = []
    stack: list[tuple[int, ...]] = [(root,) for root in reversed(roots)]
    while stack:
        path = stack.pop()
        nxt = children.get(path[-1], [])
        if not nxt:
            chains.append(path)
            if len(chains) >= MAX_CHAINS:
                warnings.append(
                    f"error tree has more than {MAX_CHAINS} chains; the rest are omitted"
                )
                break
            continue
        stack.extend(path + (c,) for c in reversed(nxt))
    return tuple(chains)
