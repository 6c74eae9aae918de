"""``clients/`` speaks HTTP only: no module under it imports the server's packages (``domain``,
``service``, ``workers``, ``projections``) or the tests. It may import itself (``clients``), the
standard library and third-party libraries (httpx, msgspec).

Every ``.py`` file is parsed and every import is checked, wherever it is: module level, inside
functions, classes, ``if TYPE_CHECKING`` blocks or ``try`` blocks, and ``importlib.import_module``
/ ``__import__`` calls with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
FORBIDDEN = frozenset({"domain", "service", "workers", "projections", "tests"})


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``tree`` (relative imports stay inside
    their package, so they are left out)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                out.append((node.lineno, node.args[0].value))
    return out


def forbidden_imports(source: str, filename: str = "<source>") -> list[str]:
    tree = ast.parse(source, filename)
    return [
        f"{filename}:{line}: imports {name}" for line, name in imported_modules(tree) if name.split(".")[0] in FORBIDDEN
    ]


def client_files() -> list[Path]:
    return sorted(p for p in CLIENTS.rglob("*.py") if ".venv" not in p.parts)


def test_there_are_clients_to_check():
    names = {p.relative_to(CLIENTS).as_posix() for p in client_files()}
    assert {"__init__.py", "bot.py", "citadel_client/models.py"} <= names


@pytest.mark.parametrize("path", client_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_client_module_imports_no_server_package(path: Path):
    assert forbidden_imports(path.read_text(), str(path.relative_to(ROOT))) == []


@pytest.mark.parametrize(
    "source",
    [
        "import domain",
        "import domain.board.commands as cmd",
        "from domain.board import commands",
        "from service.app import create_app",
        "import workers.jobs",
        "from projections import projector",
        "from tests.conftest import ROOT",
        "def f():\n    from domain.board.decisions import Decision\n    return Decision",
        "class C:\n    def m(self):\n        import service\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from domain.board import state\n",
        "try:\n    import workers\nexcept ImportError:\n    pass\n",
        "import importlib\nm = importlib.import_module('domain.board')",
        "m = __import__('service.cli')",
    ],
)
def test_the_check_catches_every_form_of_import(source: str):
    assert forbidden_imports(source)


@pytest.mark.parametrize(
    "source",
    [
        "import httpx, msgspec, asyncio",
        "from clients.citadel_client import models",
        "from .client import CitadelClient",
        "from . import models",
        "import domainx",  # a name that only starts like a server package
        "import servicemesh.api",
    ],
)
def test_the_check_allows_the_client_itself_and_libraries(source: str):
    assert forbidden_imports(source) == []
