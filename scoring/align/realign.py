"""ReAlign's alignment of solution steps to reference steps (docs/architecture.md 4.6).

Needleman-Wunsch over a precomputed similarity matrix S (m reference steps x n solution steps,
rows = reference), so the method is testable without a model. NW yields at most one-to-one
matches; REPA's one-to-many groups are then grown from them (see `_grow_groups`).
All indices in the results are 0-based; the report layer converts them to 1-based.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.align.embed import EmbedConfig, Embedder, similarity_matrix

# One step of the NW path: (reference index, solution index); None on the side with a gap.
PathStep = tuple[int | None, int | None]
_close = functools.partial(math.isclose, rel_tol=1e-9, abs_tol=1e-9)  # D is recomputed in float


@dataclass(frozen=True)
class AlignConfig:
    """Alignment constants.

    Attributes:
        gap: ReAlign's gap penalty (-0.1).
        match_threshold: an NW pair counts as a match only at or above this similarity; below it
            the pair becomes a deletion plus an insertion. 0.5 suits all-MiniLM-L6-v2, where
            unrelated steps of the same problem still score about 0.3-0.55.
        divergence_threshold: ReAlign's 0.7; a step aligned below it marks the divergence.
        group_threshold: an unmatched step joins an adjacent group at or above this similarity
            (REPA's one-to-many). 0.6: above unrelated same-problem steps, below the 0.65-0.75
            that halves of a split reference step reach.
        group_references: also let an unmatched reference step join the group of an adjacent
            reference step (a solution step that condenses several reference steps).
    """

    gap: float = -0.1
    match_threshold: float = 0.5
    divergence_threshold: float = 0.7
    group_threshold: float = 0.6
    group_references: bool = True

    def __post_init__(self) -> None:
        values = (self.gap, self.match_threshold, self.divergence_threshold, self.group_threshold)
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"AlignConfig values must be finite: {self}")
        if self.gap > 0:
            raise ValueError(f"gap must be <= 0 (a penalty), got {self.gap}")


@dataclass(frozen=True)
class AlignedGroup:
    """Reference steps <-> solution steps aligned as one unit (0-based, ascending, contiguous).

    `similarity` is the mean of S over the group's block (for a plain match, S[r][s]).
    """

    reference: tuple[int, ...]
    solution: tuple[int, ...]
    similarity: float


@dataclass(frozen=True)
class Alignment:
    """Result of `align`; every index is 0-based.

    Attributes:
        pairs: the groups in order.
        insertions: solution steps in no group.
        deletions: reference steps in no group.
        score: S_align, the mean similarity of the groups (0.0 when there is none).
        divergence_step: first solution step aligned below `divergence_threshold`, inserted, or
            first aligned past a deleted reference step; None when there is none (also when
            only trailing reference steps are missing: see `deletions`).
        step_similarity: per solution step, its group's similarity, or its best similarity to
            any reference step when unaligned (0.0 without references).
        step_reference: per solution step, the reference steps of its group (empty if none).
    """

    pairs: list[AlignedGroup]
    insertions: list[int]
    deletions: list[int]
    score: float
    divergence_step: int | None
    step_similarity: list[float] = field(default_factory=list)
    step_reference: list[tuple[int, ...]] = field(default_factory=list)


def _validated(similarity: np.ndarray) -> np.ndarray:
    s = np.asarray(similarity, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError(f"similarity must be a 2-D matrix, got shape {s.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("similarity contains NaN or infinite values")
    return s


def dp_table(similarity: np.ndarray, gap: float) -> np.ndarray:
    """NW score table D ((m+1) x (n+1)), one vectorised pass per row.

    Within row i, D[i][j] = max(a[j], D[i][j-1] + gap) with a[j] the diagonal/up candidates;
    unrolled that is j*gap + max_{k<=j}(a[k] - k*gap), a running maximum.
    """
    s = _validated(similarity)
    m, n = s.shape
    offsets = np.arange(n + 1) * gap
    table = np.empty((m + 1, n + 1))
    table[0] = offsets
    a = np.empty(n + 1)
    for i in range(1, m + 1):
        prev = table[i - 1]
        a[0] = i * gap
        np.maximum(prev[:-1] + s[i - 1], prev[1:] + gap, out=a[1:])
        table[i] = np.maximum.accumulate(a - offsets) + offsets
    return table


def trace_path(similarity: np.ndarray, table: np.ndarray, gap: float) -> list[PathStep]:
    """Backtrack from D[m][n]; on ties prefer a match, then a deleted reference step."""
    s, d = _validated(similarity).tolist(), np.asarray(table).tolist()
    i, j = len(s), len(d[0]) - 1
    path: list[PathStep] = []
    while i > 0 or j > 0:
        if i > 0 and j > 0 and _close(d[i][j], d[i - 1][j - 1] + s[i - 1][j - 1]):
            i, j = i - 1, j - 1
            path.append((i, j))
        elif i > 0 and (j == 0 or _close(d[i][j], d[i - 1][j] + gap)):
            i -= 1
            path.append((i, None))
        else:
            j -= 1
            path.append((None, j))
    path.reverse()
    return path


def _grow_groups(
    s: np.ndarray, groups: list[tuple[list[int], list[int]]], config: AlignConfig
) -> None:
    """REPA's one-to-many groups, grown greedily from NW's one-to-one matches (in place).

    An unmatched solution step next to (index +-1) a group's solution steps may join it when
    its mean similarity to the group's reference steps reaches `group_threshold`; symmetrically
    for reference steps if `group_references`. The best candidate joins first (a heap), so a
    step between two groups goes to the one it resembles more (the earlier on ties), and runs
    of unmatched steps are absorbed one by one. Groups stay contiguous and in order.
    """
    rows = s.tolist()  # plain floats: numpy call overhead dominates on these tiny means
    m, n = s.shape
    owned = [{r for refs, _ in groups for r in refs}, {j for _, sols in groups for j in sols}]
    version = [0] * len(groups)
    heap: list[tuple[float, int, int, int, int]] = []  # (-similarity, side, index, group, version)

    def push_candidates(g: int) -> None:
        refs, sols = groups[g]
        for j in (sols[0] - 1, sols[-1] + 1):
            if 0 <= j < n and j not in owned[1]:
                sim = sum(rows[r][j] for r in refs) / len(refs)
                heapq.heappush(heap, (-sim, 1, j, g, version[g]))
        if config.group_references:
            for r in (refs[0] - 1, refs[-1] + 1):
                if 0 <= r < m and r not in owned[0]:
                    sim = sum(rows[r][k] for k in sols) / len(sols)
                    heapq.heappush(heap, (-sim, 0, r, g, version[g]))

    for g in range(len(groups)):
        push_candidates(g)
    while heap:
        neg_sim, side, x, g, v = heapq.heappop(heap)
        if -neg_sim < config.group_threshold:
            return
        if v != version[g] or x in owned[side]:
            continue  # stale: the group grew since, or the step joined another group
        groups[g][side].append(x)
        groups[g][side].sort()
        owned[side].add(x)
        version[g] += 1
        push_candidates(g)


def align(similarity: np.ndarray, config: AlignConfig = AlignConfig()) -> Alignment:
    """Align solution steps (columns of S) to reference steps (rows), as ReAlign does.

    Raises:
        ValueError: S is not a 2-D matrix of finite numbers.
    """
    s = _validated(similarity)
    m, n = s.shape
    path = trace_path(s, dp_table(s, config.gap), config.gap)
    matched = [(r, j) for r, j in path if r is not None and j is not None]
    groups = [([r], [j]) for r, j in matched if s[r, j] >= config.match_threshold]
    _grow_groups(s, groups, config)
    pairs = [
        AlignedGroup(tuple(refs), tuple(sols), float(s[np.ix_(refs, sols)].mean()))
        for refs, sols in groups
    ]
    step_reference: list[tuple[int, ...]] = [() for _ in range(n)]
    step_similarity = [float(s[:, j].max()) if m else 0.0 for j in range(n)]
    for pair in pairs:
        for j in pair.solution:
            step_reference[j] = pair.reference
            step_similarity[j] = pair.similarity
    insertions = [j for j in range(n) if not step_reference[j]]
    covered = {r for pair in pairs for r in pair.reference}
    deletions = [r for r in range(m) if r not in covered]
    return Alignment(
        pairs=pairs,
        insertions=insertions,
        deletions=deletions,
        score=float(np.mean([p.similarity for p in pairs])) if pairs else 0.0,
        divergence_step=_divergence(step_reference, step_similarity, deletions, config),
        step_similarity=step_similarity,
        step_reference=step_reference,
    )


def _divergence(
    refs_of: list[tuple[int, ...]], sims: list[float], deletions: list[int], config: AlignConfig
) -> int | None:
    """ReAlign's divergence step: the first solution step that is weakly aligned or a skip.

    A skip is an inserted solution step, or a deleted reference step, which shows at the first
    solution step aligned to a later reference step. Judged on the final groups, so it does not
    depend on how NW ordered adjacent gaps.
    """
    for j, refs in enumerate(refs_of):
        if not refs or sims[j] < config.divergence_threshold or any(r < refs[0] for r in deletions):
            return j
    return None


def align_steps(
    reference_steps: Sequence[str],
    solution_steps: Sequence[str],
    embed_config: EmbedConfig = EmbedConfig(),  # noqa: B008 (frozen, hashable)
    config: AlignConfig = AlignConfig(),
    embedder: Embedder | None = None,
) -> Alignment:
    """Embed both step lists (or use `embedder`) and align them."""
    return align(similarity_matrix(reference_steps, solution_steps, embed_config, embedder), config)
