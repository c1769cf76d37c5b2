"""The command context: which source a command works on, shared options, and error translation."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

from domain.kernel.canonical import NotCanonicalError
from domain.kernel.errors import InvalidPositionError, RingsideError
from domain.kernel.viewers import Actor, Viewer
from domain.store.storage import storage_full

from .output import EXIT_INTERNAL, EXIT_REFUSED, EXIT_USAGE, CliError, set_no_color
from .rules import refusal_message
from .source import BundleSource, LocalSource, Source

F = TypeVar("F", bound=Callable[..., Any])

USAGE_CODES = {"match-not-found", "not-found", "unknown-game", "unknown-variant", "invalid-options",
               "invalid-components", "invalid-seats", "invalid-request", "malformed-move", "invalid-bundle",
               "unknown-rule", "invalid-position"}


@dataclass
class Settings:
    store: str | None = None
    url: str | None = None
    token: str | None = None
    sources: list[Source] = field(default_factory=list)
    one_game: bool = False
    """Only the game of the match a command reads is registered, when it is found (games.py)."""

    def close(self) -> None:
        for source in self.sources:
            source.close()
        self.sources.clear()

    def main_source(self) -> Source:
        """The store (local or remote) that commands which are not about one file write to."""
        if self.url:
            from .remote import RemoteSource

            source: Source = RemoteSource(self.url, self.token)
        else:
            source = LocalSource(store=self.store)
        self.sources.append(source)
        return source

    def match(self, ref: str) -> tuple[Source, str]:
        """The source and match ID for a reference: a bundle file path, or a match ID (or unique
        prefix) in the store or on the server."""
        path = Path(ref)
        if ref and path_is(path, "file"):
            bundle = BundleSource(path)
            self.sources.append(bundle)
            check_viewer(bundle, bundle.match_id)
            return bundle, bundle.match_id
        if ref and path_is(path, "dir"):
            raise CliError(f"{ref} is a directory; give a bundle file or a match ID")
        source = self.main_source()
        match_id = source.resolve(ref)
        if self.one_game:
            source.ensure_game(match_id)
        check_viewer(source, match_id)
        return source, match_id


def check_viewer(source: Source, match_id: str) -> None:
    """A command's `--as seat:N` must name a seat of the match: a usage error (exit 2) naming the
    seats that exist, never a view of a seat nobody holds."""
    ctx = click.get_current_context(silent=True)
    viewer = ctx.params.get("viewer") if ctx is not None else None
    if not isinstance(viewer, Viewer) or viewer.kind != "seat" or viewer.seat is None:
        return
    seats = source.seats(match_id)
    if viewer.seat < len(seats):
        return
    named = ", ".join(f"seat:{seat.get('seat', n)} ({seat.get('player')})" for n, seat in enumerate(seats))
    raise click.BadParameter(f"this match has no seat {viewer.seat}; its seats: {named}", ctx=ctx,
                             param_hint="'--as'")


def path_is(path: Path, kind: str) -> bool:
    """Whether `path` is a file (kind "file"), a directory ("dir") or anything ("exists"). A name
    the system cannot even look up (too long, a NUL in it) is none of them: only a match ID."""
    try:
        if kind == "exists":
            return path.exists()
        return path.is_file() if kind == "file" else path.is_dir()
    except (OSError, ValueError):
        return False


def settings() -> Settings:
    ctx = click.get_current_context()
    obj = ctx.find_object(Settings)
    if obj is None:
        obj = ctx.ensure_object(Settings)
    return obj


def _setter(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is None or value is False:
            return
        if name == "no_color":
            set_no_color(True)
            return
        obj = ctx.find_object(Settings) or ctx.ensure_object(Settings)
        setattr(obj, name, value)

    return callback


def source_options(envvars: bool = False) -> Callable[[F], F]:
    """--store, --url, --token and --no-color, accepted on the group and on every command."""

    def decorate(f: F) -> F:
        f = click.option("--no-color", is_flag=True, expose_value=False, callback=_setter("no_color"),
                         help="Never use colour (also: NO_COLOR set, or output piped).")(f)
        f = click.option("--token", metavar="TOKEN", expose_value=False, callback=_setter("token"),
                         envvar="RINGSIDE_TOKEN" if envvars else None,
                         help="Bearer token for --url [env RINGSIDE_TOKEN].")(f)
        f = click.option("--url", metavar="URL", expose_value=False, callback=_setter("url"),
                         envvar="RINGSIDE_URL" if envvars else None,
                         help="Work on a remote Ringside server instead of a local store [env RINGSIDE_URL].")(f)
        f = click.option("--store", metavar="DIR|URL", expose_value=False, callback=_setter("store"),
                         help="Local store: a data directory (SQLite) or a postgresql:// URL "
                              "[default: RINGSIDE_DATABASE_URL, else RINGSIDE_DATA_DIR, else the user data folder].")(f)
        return f

    return decorate


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")(f)


def parse_viewer(ctx: click.Context, param: click.Parameter, value: str | None) -> Viewer | None:
    if value is None:
        return None
    try:
        return Viewer.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def viewer_option(default: str = "spectator") -> Callable[[F], F]:
    return click.option("--as", "viewer", default=default, show_default=True, metavar="VIEWER",
                        callback=parse_viewer,
                        help="Whose eyes: spectator (public only), seat:N (that seat's hidden information too) "
                             "or arbiter (everything).")


_NOTED: set[tuple[str, str]] = set()


def seen_as(source: Source, match_id: str, viewer: Viewer) -> str:
    """The label of a view: whom the source answered for. Over --url the token decides, so when
    the server answered for someone other than an --as given, a note on stderr says so."""
    label = source.answered_as(match_id, viewer)
    ctx = click.get_current_context(silent=True)
    explicit = ctx is not None and ctx.get_parameter_source("viewer") not in (None, click.core.ParameterSource.DEFAULT)
    if label != str(viewer) and explicit and (match_id, label) not in _NOTED:
        _NOTED.add((match_id, label))
        click.echo(f"ringside: note: the server answered as {label}, not {viewer}: over --url the token decides "
                   "what you see (--token), not --as", err=True)
    return label


def default_name() -> str:
    try:
        return os.environ.get("RINGSIDE_ARBITER") or getpass.getuser()
    except Exception:
        return "arbiter"


def parse_actor(text: str) -> Actor:
    """`seat:N`, `arbiter[:NAME]`, `recorder[:NAME]` or `substitute:N[:NAME]`."""
    kind, _, rest = text.strip().partition(":")
    kind = kind.lower()
    if kind == "seat" and rest.isdigit():
        return Actor.player(int(rest))
    if kind == "arbiter":
        return Actor.arbiter(rest or default_name())
    if kind == "recorder":
        return Actor("recorder", None, rest or default_name())
    if kind == "substitute":
        seat, _, name = rest.partition(":")
        if seat.isdigit():
            return Actor("substitute", int(seat), name or None)
    raise CliError(f"not an author/actor: {text!r} (use seat:N, arbiter[:NAME], recorder[:NAME] "
                   "or substitute:N[:NAME])")


def translate(error: RingsideError) -> CliError:
    """A domain refusal as one line with the right exit status (rule IDs kept visible, with
    their titles: an ID alone means nothing to someone without the rulebook)."""
    rule = getattr(error, "rule", None)
    reason = getattr(error, "reason", None)
    if isinstance(error, InvalidPositionError):
        from domain.kernel.rule_texts import rule_title

        title = rule_title(error.rule)
        message = f"invalid position: {error.path}: {error.reason} ({error.rule}{' ' + title if title else ''})"
    elif rule and reason:
        message = refusal_message(rule, reason)
    else:
        message = error.message
    code = EXIT_USAGE if error.code in USAGE_CODES else EXIT_REFUSED
    return CliError(message, code)


def _one_line(error: click.UsageError) -> CliError:
    """click's three-line usage error as one line, with where to find help."""
    where = error.ctx.command_path if error.ctx is not None else "ringside"
    message = error.format_message().rstrip(".")
    return CliError(f"{message} (see: {where} --help)", EXIT_USAGE)


class RingsideGroup(click.Group):
    """A group that turns every expected failure into one line on stderr, never a traceback, and
    imports a lazily added command's module only when that command is run or listed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, str] = {}

    def add_lazy_command(self, name: str, target: str) -> None:
        """Register the command `module:attribute` under `name`, its module imported on first use."""
        self.lazy[name] = target

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            import importlib

            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        if parent is None:
            set_no_color(False)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise _one_line(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RingsideError as error:
            raise translate(error) from None
        except NotCanonicalError as error:  # text or values the record cannot hold (a lone surrogate, a float)
            raise CliError(f"cannot be recorded: {error}", EXIT_USAGE) from None
        except click.UsageError as error:
            raise _one_line(error) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            raise CliError("interrupted", 130) from None
        except BrokenPipeError:
            raise click.exceptions.Exit(0) from None
        except Exception as error:
            if os.environ.get("RINGSIDE_DEBUG"):
                raise
            if storage_full(error):
                raise CliError("the store is full, so nothing was recorded: free disk space (or raise the "
                               "database's quota) and try again", EXIT_INTERNAL) from None
            text = str(error).strip().splitlines()
            raise CliError(f"internal error: {type(error).__name__}: {text[0] if text else ''} "
                           "(set RINGSIDE_DEBUG=1 for the traceback)", EXIT_INTERNAL) from None
