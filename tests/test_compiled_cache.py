"""The compiled-rules cache: hits give the same games, and nothing it reads is trusted."""

from __future__ import annotations

import marshal
import os
from pathlib import Path

import pytest

import boardkit
from boardkit import diskcache
from boardkit.compile import cache
from boardkit.lang import parse

ROOT = Path(__file__).parents[1]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("BOARDKIT_CACHE_DIR", str(directory))
    return directory


def _play(rules: boardkit.Ruleset) -> str:
    game = rules.new_game(players=2, seed=4)
    for _ in range(40):
        game.apply_action(len(game.legal_actions()) // 2)
    return game.to_json()


def test_a_second_load_comes_from_the_cache_and_plays_the_same(cache_dir: Path) -> None:
    text = (ROOT / "rulesets" / "mandala.bk").read_text(encoding="utf-8")
    first = boardkit.parse_ruleset(text, filename="m.bk")
    second = boardkit.parse_ruleset(text, filename="m.bk")
    assert not first.from_cache
    assert second.from_cache
    assert second.python_source == first.python_source
    assert _play(second) == _play(first)
    assert second.warnings == first.warnings
    # The full model is worked out again when asked for.
    assert second.definition.procs.keys() == first.definition.procs.keys()


def test_cache_entries_are_private_files(cache_dir: Path) -> None:
    boardkit.parse_ruleset((ROOT / "examples" / "go_fish.bk").read_text(encoding="utf-8"), filename="g.bk")
    entries = list(cache_dir.iterdir())
    assert len(entries) == 1
    assert oct(cache_dir.stat().st_mode & 0o777) == "0o700"
    assert entries[0].stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "another version"])
def test_a_damaged_entry_is_ignored_and_written_again(cache_dir: Path, damage: str) -> None:
    text = (ROOT / "examples" / "go_fish.bk").read_text(encoding="utf-8")
    boardkit.parse_ruleset(text, filename="g.bk")
    (entry,) = cache_dir.iterdir()
    data = entry.read_bytes()
    entry.write_bytes({"truncated": data[: len(data) // 2], "garbage": os.urandom(300), "empty": b"",
                       "another version": data.replace(cache.engine_id().encode(), b"0" * 64)}[damage])
    again = boardkit.parse_ruleset(text, filename="g.bk")
    assert not again.from_cache
    assert boardkit.parse_ruleset(text, filename="g.bk").from_cache


def test_a_cache_others_may_write_is_not_read(cache_dir: Path) -> None:
    text = (ROOT / "examples" / "go_fish.bk").read_text(encoding="utf-8")
    boardkit.parse_ruleset(text, filename="g.bk")
    cache_dir.chmod(0o777)
    assert not boardkit.parse_ruleset(text, filename="g.bk").from_cache
    cache_dir.chmod(0o700)
    (entry,) = cache_dir.iterdir()
    entry.chmod(0o666)
    assert not boardkit.parse_ruleset(text, filename="g.bk").from_cache


def test_an_edited_base_is_a_miss(cache_dir: Path, tmp_path: Path) -> None:
    base = tmp_path / "base.bk"
    base.write_text((ROOT / "rulesets" / "mandala.bk").read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "variant.bk"
    variant.write_text('extends "base.bk"\ngame "Variant"\n', encoding="utf-8")
    text = variant.read_text(encoding="utf-8")
    assert not boardkit.parse_ruleset(text, filename=str(variant)).from_cache
    assert boardkit.parse_ruleset(text, filename=str(variant)).from_cache
    base.write_text(base.read_text(encoding="utf-8").replace('game "Mandala"', 'game "Edited"'), encoding="utf-8")
    edited = boardkit.parse_ruleset(text, filename=str(variant))
    assert not edited.from_cache


def test_load_ruleset_sees_an_edited_file(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "g.bk"
    text = (ROOT / "examples" / "go_fish.bk").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    assert boardkit.load_ruleset(str(path)) is boardkit.load_ruleset(str(path))
    path.write_text(text.replace('game "Go Fish"', 'game "Go Fishing"'), encoding="utf-8")
    assert boardkit.load_ruleset(str(path)).title == "Go Fishing"


def test_the_cache_can_be_turned_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDKIT_NO_CACHE", "1")
    assert diskcache.cache_dir() is None
    text = (ROOT / "examples" / "go_fish.bk").read_text(encoding="utf-8")
    boardkit.parse_ruleset(text, filename="g.bk")
    assert not boardkit.parse_ruleset(text, filename="g.bk").from_cache
    assert not cache_dir.exists()


def test_generated_code_runs_without_python_builtins() -> None:
    rules = boardkit.load_ruleset("mandala")
    namespace = rules.program.ns
    assert namespace["__builtins__"] == {}
    assert "open" not in namespace
    assert "__import__" not in namespace


def test_a_rule_file_that_is_not_utf8_is_a_located_rule_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.bk"
    path.write_bytes(b'game "Caf\xe9"\nplayers 2\n')
    with pytest.raises(boardkit.RuleError) as info:
        boardkit.load_ruleset(str(path))
    assert (info.value.line, info.value.column) == (1, 10)
    assert "not UTF-8" in str(info.value)


def test_a_name_too_long_for_a_path_is_an_option_error() -> None:
    with pytest.raises(boardkit.OptionError):
        boardkit.load_ruleset("x" * 5000)


def _tables(directory: Path) -> list[Path]:
    return sorted(directory.glob("parser-*.tables"))


def test_the_parser_tables_are_kept_and_parse_the_same(cache_dir: Path) -> None:
    text = (ROOT / "rulesets" / "meenakshi.bk").read_text(encoding="utf-8")
    built = parse.load_parser()
    (tables,) = _tables(cache_dir)
    assert tables.stat().st_mode & 0o077 == 0
    loaded = parse.load_parser()
    assert _tables(cache_dir) == [tables]
    assert loaded.parse(text) == built.parse(text)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "another grammar's", "writable by others"])
def test_damaged_or_foreign_parser_tables_are_built_again(cache_dir: Path, damage: str) -> None:
    text = (ROOT / "rulesets" / "mandala.bk").read_text(encoding="utf-8")
    expected = parse.load_parser().parse(text)
    (tables,) = _tables(cache_dir)
    data = tables.read_bytes()
    if damage == "writable by others":
        tables.chmod(0o666)
        damaged = data
    else:
        damaged = {"truncated": data[: len(data) // 2], "garbage": os.urandom(300),
                   "another grammar's": marshal.dumps({"data": {}, "memo": {}})}[damage]
        tables.write_bytes(damaged)
    assert parse.load_parser().parse(text) == expected
    # Tables that could not be used are written again, as a private file.
    assert tables.read_bytes() != damaged
    assert tables.stat().st_mode & 0o077 == 0
    assert parse.load_parser().parse(text) == expected
