"""ReAlign's Needleman-Wunsch alignment with REPA groups: hand-computed cases and a reference DP."""

from __future__ import annotations

import time

import numpy as np
import pytest

from scoring.align.embed import EmbedConfig, load_model, similarity_matrix
from scoring.align.realign import AlignConfig, align, align_steps, dp_table, trace_path

GAP = -0.1


def reference_nw(s: np.ndarray, gap: float) -> tuple[list[list[float]], list[tuple]]:
    """Textbook NW, cell by cell: the oracle for the vectorised table and its backtrack."""
    m, n = s.shape
    d = [[0.0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        d[i][0] = i * gap
    for j in range(1, n + 1):
        d[0][j] = j * gap
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            d[i][j] = max(d[i - 1][j - 1] + s[i - 1, j - 1], d[i - 1][j] + gap, d[i][j - 1] + gap)
    path, i, j = [], m, n
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + s[i - 1, j - 1]:
            i, j = i - 1, j - 1
            path.append((i, j))
        elif i > 0 and (j == 0 or d[i][j] == d[i - 1][j] + gap):
            i -= 1
            path.append((i, None))
        else:
            j -= 1
            path.append((None, j))
    return d, path[::-1]


def groups(al) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(p.reference, p.solution) for p in al.pairs]


@pytest.mark.parametrize("seed", range(12))
def test_vectorised_dp_equals_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, n = rng.integers(1, 25, size=2)
    s = rng.uniform(-1.0, 1.0, size=(m, n))
    gap = float(rng.choice([0.0, -0.1, -0.5]))
    expected_table, expected_path = reference_nw(s, gap)
    table = dp_table(s, gap)
    assert np.allclose(table, expected_table, atol=1e-12)
    assert trace_path(s, table, gap) == expected_path


def test_perfect_diagonal() -> None:
    s = np.full((3, 3), 0.1) + np.diag([0.8, 0.8, 0.8])
    al = align(s)
    assert groups(al) == [((0,), (0,)), ((1,), (1,)), ((2,), (2,))]
    assert al.insertions == [] and al.deletions == []
    assert al.score == pytest.approx(0.9)
    assert al.divergence_step is None
    assert al.step_reference == [(0,), (1,), (2,)]
    assert dp_table(s, GAP)[3, 3] == pytest.approx(2.7)


def test_inserted_solution_step() -> None:
    s = np.array([[0.9, 0.1, 0.1], [0.1, 0.2, 0.9]])
    al = align(s)
    # D[2][3] = 0.9 + gap + 0.9: matching the middle step instead would give 0.9 + 0.2 + gap.
    assert dp_table(s, GAP)[2, 3] == pytest.approx(1.7)
    assert groups(al) == [((0,), (0,)), ((1,), (2,))]
    assert al.insertions == [1]
    assert al.step_similarity[1] == pytest.approx(0.2)  # unaligned: its best reference
    assert al.step_reference[1] == ()
    assert al.divergence_step == 1


def test_deleted_reference_step() -> None:
    s = np.array([[0.9, 0.1], [0.2, 0.2], [0.1, 0.9]])
    al = align(s)
    assert groups(al) == [((0,), (0,)), ((2,), (1,))]
    assert al.deletions == [1] and al.insertions == []
    assert al.divergence_step == 1  # the first step aligned past the skipped reference step


def test_gap_penalties_make_nw_skip() -> None:
    # Diagonal: 0.1 + 0.1 = 0.2; skipping onto (0, 1): 0.9 - 0.2 = 0.7; onto (1, 0): 0.6.
    s = np.array([[0.1, 0.9], [0.8, 0.1]])
    assert dp_table(s, GAP)[2, 2] == pytest.approx(0.7)
    al = align(s)
    assert groups(al) == [((0,), (1,))]
    assert al.insertions == [0] and al.deletions == [1]
    assert al.divergence_step == 0


def test_nw_pair_below_match_threshold_is_a_gap_on_both_sides() -> None:
    al = align(np.array([[0.9, 0.1], [0.1, 0.3]]))
    assert groups(al) == [((0,), (0,))]
    assert al.insertions == [1] and al.deletions == [1]
    assert al.step_similarity == pytest.approx([0.9, 0.3])


@pytest.mark.parametrize(
    ("shape", "insertions", "deletions", "divergence"),
    [((0, 0), [], [], None), ((0, 3), [0, 1, 2], [], 0), ((2, 0), [], [0, 1], None)],
)
def test_empty_sides(shape, insertions, deletions, divergence) -> None:
    al = align(np.zeros(shape))
    assert al.pairs == [] and al.score == 0.0
    assert al.insertions == insertions and al.deletions == deletions
    assert al.divergence_step == divergence
    assert al.step_similarity == [0.0] * shape[1]


def test_one_to_many_groups_like_realign_example() -> None:
    s = np.array([[0.77, 0.69, 0.60, 0.63], [0.52, 0.48, 0.77, 0.72]])
    al = align(s)
    assert groups(al) == [((0,), (0, 1)), ((1,), (2, 3))]
    assert [p.similarity for p in al.pairs] == pytest.approx([0.73, 0.745])
    assert al.score == pytest.approx((0.73 + 0.745) / 2)
    assert al.step_similarity == pytest.approx([0.73, 0.73, 0.745, 0.745])
    assert al.insertions == [] and al.deletions == [] and al.divergence_step is None


def test_a_run_of_steps_joins_one_group() -> None:
    s = np.array([[0.9, 0.7, 0.65, 0.1], [0.1, 0.2, 0.3, 0.9]])
    assert groups(align(s)) == [((0,), (0, 1, 2)), ((1,), (3,))]


def test_a_step_between_two_groups_joins_the_more_similar() -> None:
    s = np.array([[0.9, 0.62, 0.1], [0.1, 0.68, 0.9]])
    assert groups(align(s)) == [((0,), (0,)), ((1,), (1, 2))]


def test_dissimilar_neighbour_stays_inserted() -> None:
    s = np.array([[0.9, 0.55], [0.1, 0.2]])
    al = align(s)  # NW matched (1, 1) at 0.2, below match_threshold
    assert groups(al) == [((0,), (0,))] and al.insertions == [1]


def test_several_reference_steps_onto_one_solution_step() -> None:
    s = np.array([[0.72], [0.79]])  # "Subtract 5 and divide by 2 to get x = 4."
    assert groups(align(s)) == [((0, 1), (0,))]
    al = align(s, AlignConfig(group_references=False))
    assert groups(al) == [((1,), (0,))] and al.deletions == [0]
    assert al.divergence_step == 0


def test_divergence_at_weak_match() -> None:
    s = np.array([[0.9, 0.1, 0.1], [0.1, 0.65, 0.1], [0.1, 0.1, 0.9]])
    al = align(s)
    assert al.insertions == [] and al.deletions == []
    assert al.divergence_step == 1
    assert align(s, AlignConfig(divergence_threshold=0.6)).divergence_step is None


def test_missing_final_reference_step_is_a_deletion_without_divergence() -> None:
    al = align(np.array([[0.9, 0.1], [0.1, 0.9], [0.2, 0.3]]))
    assert al.deletions == [2] and al.divergence_step is None


@pytest.mark.parametrize(
    "bad", [np.zeros(3), np.zeros((2, 2, 2)), np.array([[0.5, np.nan]]), np.array([[np.inf]])]
)
def test_rejects_bad_matrices(bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="similarity"):
        align(bad)


def test_rejects_positive_gap() -> None:
    with pytest.raises(ValueError, match="gap"):
        AlignConfig(gap=0.1)


def test_200_by_200_aligns_quickly() -> None:
    s = np.random.default_rng(7).uniform(0.0, 1.0, size=(200, 200))
    start = time.perf_counter()
    al = align(s)
    assert time.perf_counter() - start < 0.5  # a few ms here; guards against O(n^3) regressions
    assert len(al.step_reference) == 200


def test_align_steps_with_injected_embedder() -> None:
    vocabulary = ["subtract", "divide", "area"]

    def fake(texts):
        return np.array([[float(w in t.lower()) for w in vocabulary] for t in texts])

    al = align_steps(["Subtract 5.", "Divide by 2."], ["subtract it", "then divide"], embedder=fake)
    assert groups(al) == [((0,), (0,)), ((1,), (1,))] and al.score == pytest.approx(1.0)


REFERENCE = ["Subtract 5 from both sides: 2x = 8.", "Divide both sides by 2: x = 4."]
SOLUTIONS = {
    "plain": [
        "Subtract 5 from both sides of the equation.",
        "This gives 2x = 13 - 5 = 8.",
        "Divide both sides by 2.",
        "So x = 8 / 2 = 4.",
    ],
    "connectives": [
        "First, subtract 5 from both sides.",
        "Then 2x = 13 - 5, so 2x = 8.",
        "Next, divide both sides by 2.",
        "Therefore x = 8 / 2 = 4.",
    ],
    "paraphrase": [
        "We take 5 away from each side of 2x + 5 = 13.",
        "That leaves 2x = 8.",
        "Now divide each side by 2.",
        "Hence x = 4.",
    ],
}


@pytest.fixture(scope="session")
def minilm_config() -> EmbedConfig:
    """Loads the offline MiniLM once per process (load_model caches it)."""
    config = EmbedConfig()
    load_model(config.model, config.device)
    return config


@pytest.mark.model
@pytest.mark.parametrize("wording", SOLUTIONS)
def test_realign_worked_example(wording: str, minilm_config: EmbedConfig) -> None:
    """ReAlign's example (2x + 5 = 13): reference step 1 <-> steps 1-2, step 2 <-> steps 3-4."""
    s = similarity_matrix(REFERENCE, SOLUTIONS[wording], minilm_config)
    al = align(s)
    assert groups(al) == [((0,), (0, 1)), ((1,), (2, 3))], np.round(s, 3)
    assert al.insertions == [] and al.deletions == []
    assert al.divergence_step is None and al.score >= 0.7
