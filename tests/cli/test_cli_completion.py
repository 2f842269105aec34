"""``embornal completion bash|zsh|fish``: a script made from the real parser (every group,
command and option), valid for its shell, that completes commands, options and choices."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cli_helpers import Run

from embornal.interfaces.cli.completion_cmds import walk
from embornal.interfaces.cli.tree import build_parser

TREE = walk(build_parser())
TOP = [name for name, _ in TREE[("embornal",)].commands]


def _script(cli: Run, shell: str, tmp_path: Path) -> Path:
    r = cli("completion", shell)
    assert r.code == 0 and r.err == "", r.err
    path = tmp_path / f"embornal.{shell}"
    path.write_text(r.out, encoding="utf-8")
    return path


def test_the_tree_is_the_parser_s() -> None:
    assert {"memory", "import", "status", "doctor", "completion", "serve"} <= set(TOP)
    assert ("embornal", "memory", "store") in TREE and ("embornal", "import", "claude") in TREE
    store = TREE[("embornal", "memory", "store")]
    assert any("--tag" in o.flags and o.takes_value for o in store.options)
    assert TREE[("embornal", "completion")].values == ("bash", "zsh", "fish")


def test_bash_script_is_valid_and_names_every_command_and_option(cli: Run, tmp_path: Path) -> None:
    path = _script(cli, "bash", tmp_path)
    subprocess.run(["bash", "-n", str(path)], check=True, capture_output=True, timeout=30)
    text = path.read_text("utf-8")
    assert f"'embornal') echo '{' '.join(TOP)}' ;;" in text
    for words, node in TREE.items():
        assert f"'{' '.join(words)}') echo '" in text, words
        for option in node.options:
            assert all(flag in text for flag in option.flags), (words, option)


def _complete(script: Path, *words: str) -> list[str]:
    """What the bash function offers for the command line ``words`` (the last one being
    completed)."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (
        f"source '{script}'\nCOMP_WORDS=({quoted})\nCOMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))\n"
        '_embornal\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return [line for line in done.stdout.splitlines() if line]


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        (("embornal", ""), TOP),
        (("embornal", "memory", "st"), ["store", "status"]),
        (("embornal", "memory", "store", "--ta"), ["--tag"]),
        (("embornal", "--db", "x.db", "memory", "recall", "--mo"), ["--mode"]),
        (("embornal", "memory", "recall", "--mode", ""), ["auto", "keyword", "vector", "hybrid"]),
        (("embornal", "mcp", "--profile", "f"), ["full"]),
        (("embornal", "completion", ""), ["bash", "zsh", "fish"]),
        (("embornal", "import", "c"), ["chatgpt", "claude"]),
        (("embornal", "--json", "import", "chatgpt", "--ext"), ["--extractor"]),
        (("embornal", "memory", "store", "/a"), []),  # a value: files (readline's default)
    ],
    ids=lambda w: " ".join(w) if isinstance(w, tuple) else "",
)
def test_bash_completes_commands_options_and_choices(
    cli: Run, tmp_path: Path, words: tuple[str, ...], offered: list[str]
) -> None:
    assert _complete(_script(cli, "bash", tmp_path), *words) == offered


def test_zsh_script(cli: Run, tmp_path: Path) -> None:
    path = _script(cli, "zsh", tmp_path)
    text = path.read_text("utf-8")
    assert text.startswith("#compdef embornal\n")
    for words, node in TREE.items():
        assert f"_embornal_opts['{' '.join(words)}']=" in text, words
        for name, _ in node.commands:
            assert f"\n{name}:" in text or f"='{name}:" in text, (words, name)
    if shutil.which("zsh"):
        subprocess.run(["zsh", "-n", str(path)], check=True, capture_output=True, timeout=30)


def test_fish_script(cli: Run, tmp_path: Path) -> None:
    path = _script(cli, "fish", tmp_path)
    text = path.read_text("utf-8")
    for words, node in TREE.items():
        at = f"-n '__embornal_at \\'{' '.join(words)}\\''"
        for name, _ in node.commands:
            assert f"complete -c embornal {at} -f -a '{name}'" in text, (words, name)
        for option in node.options:
            long = [f[2:] for f in option.flags if f.startswith("--")]
            assert all(f"-l '{n}'" in text for n in long), (words, option)
    if shutil.which("fish"):
        subprocess.run(
            ["fish", "--no-execute", str(path)], check=True, capture_output=True, timeout=30
        )


def test_a_shell_it_does_not_know_is_a_usage_error(cli: Run) -> None:
    r = cli("completion", "tcsh")
    assert r.code == 2 and "tcsh" in r.err
