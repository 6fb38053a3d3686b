"""Rulesets: loading bundled or user rule files, and starting or loading games from them."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardkit.compile import cache
from boardkit.compile.module import generate
from boardkit.errors import Diagnostic, OptionError, RuleError
from boardkit.game import Game, start
from boardkit.runtime.interpreter import Interpreter
from boardkit.runtime.program import Option, Program
from boardkit.runtime.state import Layout
from boardkit.source import SourceFile, Span

if TYPE_CHECKING:
    from boardkit.model.defs import GameDef

__all__ = ["Option", "Ruleset", "list_rulesets", "load_ruleset", "parse_ruleset"]


def _bundled_dir() -> Path:
    """Rule files ship inside the wheel as package data; a source checkout keeps them at the top."""
    packaged = resources.files("boardkit") / "rulesets"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "rulesets"


def list_rulesets() -> list[str]:
    """Names of the bundled rulesets."""
    return sorted(p.stem for p in _bundled_dir().glob("*.bk"))


def _resolve(target: str, relative_to: str) -> Path | None:
    """Finds the file an `extends` names: a path beside the extending file, or a bundled name."""
    for candidate in (Path(relative_to).parent / target, Path(relative_to).parent / f"{target}.bk",
                      _bundled_dir() / f"{target}.bk"):
        if candidate.is_file():
            return candidate
    return None


class Ruleset:
    """A compiled ruleset; cheap to start many games from."""

    def __init__(self, program: Program, source_text: str, source_filename: str,
                 definition: GameDef | None = None) -> None:
        self.program = program
        self.interpreter = Interpreter(program)
        self.source_text = source_text
        self.source_filename = source_filename
        self.source_path: str | None = None
        #: Whether the rules came from the compiled cache rather than being compiled now.
        self.from_cache = definition is None
        self._definition = definition

    @property
    def definition(self) -> GameDef:
        """The checked model of the rules.

        Rules loaded from the compiled cache work it out again from their text the first time
        it is asked for.
        """
        if self._definition is None:
            self._definition = _check(SourceFile(self.source_text, self.source_filename), self.name)
        return self._definition

    @property
    def python_source(self) -> str:
        """The rules compiled to one Python module (what `boardkit compile` prints)."""
        return self.program.source

    @property
    def name(self) -> str:
        """The ruleset's name: its file's name without the extension ('ruleset' for bare text)."""
        return self.program.game.name

    @property
    def title(self) -> str:
        """The game's title, as the rules give it."""
        return self.program.game.title

    @property
    def min_players(self) -> int:
        """The fewest players the game is for."""
        return self.program.game.min_players

    @property
    def max_players(self) -> int:
        """The most players the game is for."""
        return self.program.game.max_players

    @property
    def warnings(self) -> list[str]:
        """Probable mistakes found by the checker, rendered like errors (file:line:col)."""
        game = self.program.game
        return [w.render(game.sources.get(w.span.filename)) for w in game.warnings]

    @property
    def constants(self) -> dict[str, Any]:
        """The values of the declared constants, by name."""
        return dict(self.program.consts)

    @property
    def options(self) -> dict[str, Option]:
        """Declared options with their defaults and allowed values."""
        return dict(self.program.options)

    @functools.cache  # noqa: B019 - a ruleset lives as long as its games
    def layout(self, players: int) -> Layout:
        """Zone slots and variable keys for `players` players, shared by the games of that many."""
        return Layout(self.program, players)

    def resolve_options(self, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
        """Every option's value for a new game: the defaults, with `options` checked and applied.

        Raises OptionError for a player count the game is not for, or an unknown or bad option.
        """
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            low, high = self.min_players, self.max_players
            counts = str(low) if low == high else f"{low}-{high}"
            msg = f"{self.name} is for {counts} players, not {players!r}"
            raise OptionError(msg)
        if options is not None and not isinstance(options, dict):
            msg = f"options are a dict of option names to values, not {options!r:.60}"
            raise OptionError(msg)
        declared = self.program.options
        chosen = {name: opt.default for name, opt in declared.items()}
        for name, value in (options or {}).items():
            opt = declared.get(name)
            if opt is None:
                known = ", ".join(declared) or "none"
                msg = f"unknown option {name!r} for {self.name} (options: {known})"
                raise OptionError(msg)
            if opt.choices is not None and value not in opt.choices:
                msg = f"option {name!r} cannot be {_as_written(value)}; choose one of {_as_written(list(opt.choices))}"
                raise OptionError(msg)
            if type(value) is not type(opt.default):
                msg = f"option {name!r} takes {_KINDS.get(type(opt.default), 'a value')}, not {_as_written(value)}"
                raise OptionError(msg)
            chosen[name] = value
        return chosen

    def new_game(self, players: int | None = None, seed: int = 0, options: dict[str, Any] | None = None,
                 position: dict[str, Any] | None = None, *, check_invariants: bool = False) -> Game:
        """Starts a game; with `position`, from that position instead of the dealt one.

        With `check_invariants`, the invariants the rules declare are checked at the start and
        after every decision; a false one raises `InvariantError`. Every option is then also
        played ahead before it is offered, so that an option whose turn meets a rule fault makes
        `legal_moves()` raise a located `RuleRuntimeError` naming it, instead of `play()`.
        """
        players = self.min_players if players is None else players
        if not isinstance(seed, int) or isinstance(seed, bool):
            msg = f"the seed must be an integer, not {seed!r:.40}"
            raise OptionError(msg)
        return start(self, players, seed, self.resolve_options(players, options), position,
                     check_invariants=check_invariants)

    def dump_game(self, game: Game) -> str:
        """Serializes a game of these rules (what `Game.to_json` returns)."""
        from boardkit.io.serialize import dump_game  # noqa: PLC0415 - cattrs loads only when a game is saved or loaded

        return dump_game(game)

    def load_game(self, text: str, *, check_history: bool = True, check_invariants: bool = False) -> Game:
        """Loads a game saved with `Game.to_json`; raises StateError if it is corrupt or foreign.

        The saved moves are played again, and the save is refused unless they lead to the
        saved state. `check_history=False` loads a state the rules did not reach by its moves
        (hidden pieces rearranged, to try what a player cannot see) after the checks of its
        shape alone; its first undo checks the history then. With `check_invariants`, as in
        `new_game`: the loaded state is checked at once.
        """
        from boardkit.io.serialize import load_game  # noqa: PLC0415 - as in dump_game

        game = load_game(self, text, check_history=check_history)
        if check_invariants:
            game.check_invariants = True
            game.verify_invariants()
        return game

    def __repr__(self) -> str:
        return f"<Ruleset {self.name} {self.min_players}-{self.max_players} players>"


# What an option's values are, as the rule language names them.
_KINDS = {bool: "true or false", int: "a whole number", str: "a text"}


def _as_written(value: object) -> str:
    """A value as the rule language writes it: true, false, none, [1, 2]."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(_as_written(v) for v in value) + "]"
    return f"{value!r:.60}"


def _check(source: SourceFile, name: str) -> GameDef:
    """Parses and checks rule text.

    The front end (and lark) is imported only when rules are not in the compiled cache: a
    program that loads cached rules starts faster without it.
    """
    from boardkit.lang.check import check_source  # noqa: PLC0415 - imported on first use, see above

    return check_source(source, name, _resolve)


def parse_ruleset(text: str, filename: str = "<string>") -> Ruleset:
    """Compiles rule text, or loads it from the compiled cache.

    Raises RuleError with every problem found.
    """
    cached = cache.load(filename, text)
    if cached is not None:
        return Ruleset(Program(cached.game, cached.python_source, cached.code), text, filename)
    name = Path(filename).stem if filename != "<string>" else "ruleset"
    definition = _check(SourceFile(text, filename), name)
    python_source = generate(definition)
    program = Program(definition, python_source)
    cache.store(filename, text, definition, python_source, program.code)
    return Ruleset(program, text, filename, definition)


# Rulesets loaded in this process, by path, with the texts they were compiled from: a file
# (or a base it extends) edited since is compiled again.
_LOADED: dict[str, tuple[tuple[tuple[str, str], ...], Ruleset]] = {}


def _read_rules(path: Path) -> str:
    """A rule file's text; bytes that are not UTF-8 are a located RuleError."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        column = exc.start - (head.rfind(b"\n") + 1) + 1
        msg = f"the file is not UTF-8 text: byte {data[exc.start]:#04x} cannot be read"
        raise RuleError([Diagnostic(Span(str(path), line, column), msg)]) from None


def _load_path(path: str) -> Ruleset:
    text = _read_rules(Path(path))
    known = _LOADED.get(path)
    if known is not None:
        stamp, rules = known
        if stamp[0] == (path, text) and all(_unchanged(f, t) for f, t in stamp[1:]):
            return rules
    rules = parse_ruleset(text, filename=path)
    rules.source_path = path
    bases = tuple((f, src.text) for f, src in sorted(rules.program.game.sources.items()) if f != path)
    _LOADED[path] = (((path, text), *bases), rules)
    return rules


def _unchanged(filename: str, text: str) -> bool:
    try:
        return Path(filename).read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def load_ruleset(name: str) -> Ruleset:
    """Loads a bundled ruleset by name, or a rule file by path."""
    if not isinstance(name, str):
        msg = f"a ruleset is named by a string, not {name!r:.60}"
        raise OptionError(msg)
    path = Path(name)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL in it
        is_file = False
    if path.suffix == ".bk" or is_file:
        if not is_file:
            msg = f"no rule file {name!r:.200}"
            raise OptionError(msg)
        return _load_path(str(path.resolve()))
    bundled = _bundled_dir() / f"{name}.bk"
    try:
        known = bundled.is_file()
    except (OSError, ValueError):
        known = False
    if not known:
        msg = f"no bundled ruleset {name!r:.200}; bundled: {', '.join(list_rulesets())}"
        raise OptionError(msg)
    return _load_path(str(bundled))
