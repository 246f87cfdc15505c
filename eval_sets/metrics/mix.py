"""Re-weighting a labelled set to another mix of problems, for figures that a mix can move.

A figure measured on the development mix (36% of StepMathBench's solutions scored below the
pass mark, 19% proofs) need not hold on a set with more wrong answers and more proofs. Raking
(iterative proportional fitting; Deming & Stephan 1940, "On a least squares adjustment of a
sampled frequency table when the expected marginal totals are known", Ann. Math. Statist. 11(4))
gives each solution a weight so that the weighted shares of two margins (proof or not; passed or
not, by the human binary score) meet their targets, while keeping the set's own proportions
within each cell.
"""

from __future__ import annotations

from collections.abc import Sequence

ITERATIONS = 100
# The mix of the held-out StepMathBench: more solutions below the pass mark, and more proofs,
# than the development set (36%, 19%).
HELD_OUT_MIX = {"failed": 0.46, "proof": 0.29}


def mix_weights(
    proof: Sequence[bool], failed: Sequence[bool], proof_share: float, failed_share: float
) -> list[float]:
    """A weight per solution (mean 1) that makes `proof_share` of the weight proofs and
    `failed_share` solutions below the pass mark. Raises when a margin cannot be met (a
    target above 0 for a cell the set does not have)."""
    n = len(proof)
    if n != len(failed):
        raise ValueError("one flag of each kind per solution")
    for flags, share, name in ((proof, proof_share, "proof"), (failed, failed_share, "failed")):
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"the {name} share must be in [0, 1], got {share}")
        if (share > 0 and not any(flags)) or (share < 1 and all(flags)):
            raise ValueError(f"the set has no solutions to give the {name} share {share}")
    weights = [1.0] * n
    for _ in range(ITERATIONS):
        for flags, share in ((proof, proof_share), (failed, failed_share)):
            inside = sum(w for w, f in zip(weights, flags, strict=True) if f)
            outside = sum(weights) - inside
            weights = [
                w * (share / inside if f else (1 - share) / outside)
                if (inside if f else outside)
                else w
                for w, f in zip(weights, flags, strict=True)
            ]
    mean = sum(weights) / n
    return [w / mean for w in weights]
