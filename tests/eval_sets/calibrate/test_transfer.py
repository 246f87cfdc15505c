"""Carrying human step labels onto a finer segmentation of the same solution."""

from eval_sets.calibrate.transfer import carry_labels


def test_labels_are_carried_onto_finer_steps():
    text = "(1) 先算 $3+4=7$。然后 $7 \\times 2 = 14$。\n(2) 所以答案是 15。"
    human = ["先算 $3+4=7$。然后 $7 \\times 2 = 14$。", "所以答案是 15。"]
    mine = ["先算 $3+4=7$。", "然后 $7 \\times 2 = 14$。", "所以答案是 15。"]
    assert carry_labels(text, human, mine) == [0, 0, 1]


def test_a_human_step_that_was_edited_still_lands_in_order():
    text = "- First we add.\n- Then we multiply 3 by 4.\nFinally we are done."
    human = ["First we add. Then we multiply 3 by 4.", "Finally we are done."]
    assert carry_labels(
        text, human, ["First we add.", "Then we multiply 3 by 4.", "Finally we are done."]
    ) == [0, 0, 1]
