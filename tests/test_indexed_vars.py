"""Variables indexed by a range of numbers (`var height[0..6] = 0`) and items of a list
variable set in place (`set heights[x] += 1`): what they do, and their errors, located."""

from __future__ import annotations

import json
import re

import pytest

import boardkit

RULES = '''game "Heights"
players 2
var height[0..6] = 0
var heights = [0, 0, 0]
var per[Player, 1..3] = []
var at = 3
var sum = 1 + 2
play {
  set height[at] += 2
  set height[0] = 5
  set height[at] -= 1
  set heights[2] += 4
  set heights[1] = 7
  set heights[3] -= 1
  set per[1, 2] = [1, 2]
  set per[1, 2, 2] += 10
  set per[0, 1] += [[]]
  set per[0, 1, 1] += [9]
  turn 0 {
    choose x from range(0, 6) prompt "column"
    set height[x] += 1
  }
  end game "done"
}
score p = height[at] + heights[2] + per[1, 2, 2]
'''


def game() -> boardkit.Game:
    return boardkit.parse_ruleset(RULES, "heights.bk").new_game(players=2, seed=1)


def test_numbered_variables_and_list_items_are_read_and_set() -> None:
    g = game()
    values = g.view(0)["vars"]
    assert [values[f"height[{i}]"] for i in range(7)] == [5, 0, 0, 1, 0, 0, 0]
    assert values["heights"] == [7, 4, -1]
    assert values["per[1,2]"] == [1, 12]
    assert values["per[0,1]"] == [[9]]
    assert "height[7]" not in values and "per[0,0]" not in values
    g.play("3")
    assert g.view(0)["vars"]["height[3]"] == 2
    assert g.scores() == [2 + 4 + 12] * 2


def test_numbered_variables_survive_saves_and_positions() -> None:
    g = game()
    rules = g.rules
    assert rules.load_game(g.to_json()).to_json() == g.to_json()
    placed = rules.new_game(players=2, seed=1, position={"vars": {"height[6]": 4}})
    assert placed.view(0)["vars"]["height[6]"] == 4
    doc = json.loads(g.to_json())
    doc["vars"]["height[9]"] = 1
    with pytest.raises(boardkit.StateError):
        rules.load_game(json.dumps(doc))


@pytest.mark.parametrize(("statement", "message"), [
    ("set height[at + 6] += 1", "KeyError: nothing at ('height', 9)"),
    ("set height[at + 6] = 1", "KeyError: nothing at ('height', 9)"),
    ("log \"h\", height[at - 4]", "KeyError: nothing at ('height', -1)"),
    ("set heights[at + 1] = 1", "no item 4 in a list of 3 (counting from 1)"),
    ("log \"h\", heights[at + 1]", "position 4 is outside a list of 3"),
    ("set at = 0\n  set heights[at] += 1", "no item 0 in a list of 3"),
    ("set sum[1] = 1", "TypeError: set sum[1]: the variable holds 3, not a list"),
])
def test_an_index_out_of_range_at_run_time_is_a_located_rule_error(statement: str, message: str) -> None:
    text = RULES.replace("play {\n", f"play {{\n  {statement}\n", 1)
    with pytest.raises(boardkit.RuleRuntimeError, match=re.escape(message)) as caught:
        boardkit.parse_ruleset(text, "heights.bk").new_game(players=2, seed=1)
    assert str(caught.value).startswith(f"heights.bk:{9 + statement.count(chr(10))}:")


def test_a_variable_that_starts_as_no_list_has_no_items() -> None:
    with pytest.raises(boardkit.RuleError, match="variable 'at' takes 0 index"):
        boardkit.parse_ruleset(RULES.replace("play {\n", "play {\n  set at[1] = 1\n", 1), "heights.bk")
