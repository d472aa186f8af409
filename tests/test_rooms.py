"""The house's rooms: no import circle among the project's own modules, and the game imports no storage,
file or web module (docs/ARCHITECTURE.md, "The rooms")."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def project_files() -> dict[str, Path]:
    """Every module of the app, by its dotted name: app.py, cli.py, models/ and views/."""
    files = [ROOT / "app.py", ROOT / "cli.py", *ROOT.glob("models/**/*.py"), *ROOT.glob("views/**/*.py")]
    return {".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
            for path in files}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that `path` imports anywhere in it (inside functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found |= {module, *(f"{module}.{alias.name}" for alias in node.names)}
    return (found & known) - {name}


def import_graph() -> dict[str, set[str]]:
    files = project_files()
    return {name: imported(name, path, set(files)) for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_from_the_imports():
    graph = import_graph()
    assert "views.site.db" in graph["app"] and "models.storage.work" in graph["models.storage.matches"]
    assert "models.game.ledger" in graph["models.storage.match_rows"]  # a relative `from .x` and an absolute one


def test_a_circle_is_found_and_named():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_among_the_projects_modules():
    files = project_files()
    closing = [[str(files[name].relative_to(ROOT)) for name in part] for part in circles(import_graph())]
    assert closing == [], f"these files import each other in a circle: {closing}"


def test_the_game_imports_no_storage_file_or_web_module():
    graph, files = import_graph(), project_files()
    game = [name for name in graph if name.startswith("models.game")]
    assert len(game) > 10
    outside = {name: sorted(other for other in graph[name] if not other.startswith(("models.game", "models.errors")))
               for name in game}
    assert {name: found for name, found in outside.items() if found} == {}
    for name in game:
        tree = ast.parse(files[name].read_text(encoding="utf-8"))
        modules = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        modules |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not {module.split(".")[0] for module in modules} & {"flask", "sqlite3", "psycopg", "werkzeug"}, name


def test_no_module_of_the_project_is_over_400_lines():
    sizes = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
             for path in project_files().values()}
    assert len(sizes) > 80
    assert {path: lines for path, lines in sizes.items() if lines > 400} == {}


# A path of the project's own code named in a comment, a docstring or a page of the docs: after a move, a
# comment that still names the old place sends a reader to a file that is not there.
NAMED_MODULE = re.compile(r"\b(?:models|views)/[a-z_/]+\.py\b")
WRITTEN = ("*.py", "*.html", "*.js", "*.md")
SKIPPED = {"node_modules", ".git", "instance"}


def named_modules(text: str) -> set[str]:
    return set(NAMED_MODULE.findall(text))


def test_a_named_module_path_is_found_in_text():
    gone = "views/" "gone.py"  # written apart, so this file names no missing module itself
    assert named_modules(f"the rows (models/storage/hand_rows.py) and {gone}") == {"models/storage/hand_rows.py", gone}


def test_every_module_named_in_the_code_and_docs_exists():
    missing = []
    for pattern in WRITTEN:
        for path in ROOT.rglob(pattern):
            if SKIPPED & set(path.relative_to(ROOT).parts):
                continue
            for name in named_modules(path.read_text(encoding="utf-8", errors="replace")):
                if not (ROOT / name).is_file():
                    missing.append(f"{path.relative_to(ROOT)} names {name}")
    assert not missing, "\n".join(sorted(missing))
