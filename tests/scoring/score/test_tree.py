from scoring.score.tree import build_tree

C, I, M = "correct", "incorrect", "meaningless"


def test_stepmathagent_example_chains():
    labels = [C, C, I, M, I, M]
    deps = [[], [1], [2], [3], [2], [4, 5]]
    result = build_tree(labels, deps)
    assert result.tree.roots == (3, 5)
    assert result.tree.edges == ((3, 4), (4, 6), (5, 6))
    assert result.tree.chains == ((3, 4, 6), (5, 6))
    assert result.tree.formatted() == "(3)-(4)-(6), (5)-(6)"
    assert result.warnings == []


def test_clean_solution_has_empty_tree():
    result = build_tree([C, C, C], [[], [1], [2]])
    assert result.tree.chains == () and result.tree.formatted() == ""


def test_lone_error_is_a_chain_of_one():
    assert build_tree([C, I, C], [[], [], []]).tree.chains == ((2,),)


def test_forward_and_self_dependencies_are_dropped_with_a_warning():
    result = build_tree([I, M], [[2], [2, 1]])
    assert result.depends_on == [[], [1]]
    assert any("step 1" in w and "dropped" in w for w in result.warnings)
    assert any("step 2" in w and "dropped" in w for w in result.warnings)


def test_meaningless_without_error_is_relabelled_correct():
    result = build_tree([M, C], [[], [1]])
    assert result.labels == [C, C]
    assert "relabelled correct" in result.warnings[0]


def test_meaningless_without_named_dependency_links_to_latest_error():
    result = build_tree([I, C, I, M], [[], [], [], [2]])
    assert result.depends_on[3] == [2, 3]
    assert result.tree.chains == ((1,), (3, 4))
    assert "linked to step 3" in result.warnings[0]


def test_incorrect_step_fed_by_an_error_is_not_a_root():
    result = build_tree([I, I, M], [[], [1], [2]])
    assert result.tree.roots == (1,)
    assert result.tree.chains == ((1, 2, 3),)


def test_chain_count_is_bounded():
    n = 40  # a dense DAG would have 2^38 paths
    labels = [I] + [M] * (n - 1)
    deps = [[]] + [list(range(1, j)) for j in range(2, n + 1)]
    result = build_tree(labels, deps)
    assert len(result.tree.chains) == 200
    assert any("more than 200 chains" in w for w in result.warnings)
