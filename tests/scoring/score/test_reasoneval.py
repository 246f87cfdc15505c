from scoring.score.reasoneval import solution_redundancy, solution_validity


def test_reasoneval_solution_scores():
    assert solution_validity([0.9, 0.2, 0.8]) == 0.2
    assert solution_redundancy([0.1, 0.7, 0.3]) == 0.7
