"""The property-test kit on the tutorial's Go Fish: a rule author's whole test file.

pytest runs the test: `pytest examples/test_go_fish_rules.py`. Run as a script, it prints
what the kit checked.
"""

from pathlib import Path

from boardkit.testing import check_rules

RULES = Path(__file__).with_name("go_fish.bk")


def test_go_fish_keeps_its_invariants_and_the_engine_guarantees() -> None:
    check_rules(str(RULES), games=5)


if __name__ == "__main__":
    report = check_rules(str(RULES), games=3)
    print(f"{report.games} games, {report.decisions} decisions checked against {', '.join(report.invariants)}: ok")
