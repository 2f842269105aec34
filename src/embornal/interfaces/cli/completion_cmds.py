"""``embornal completion bash|zsh|fish``: a shell completion script made from the parser.

The whole argparse tree is built once (every group, command and option, as ``--help``
shows them) and written into the script as plain data: completing a word runs no Python,
so a TAB costs nothing and start-up stays as it is. The script finds the command typed
so far (skipping options and their values), then offers its subcommands, its options,
an option's choices, or files.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import NamedTuple

from embornal.interfaces.cli.app import Context

__all__ = ["Node", "Option", "completion", "script", "walk"]


class Option(NamedTuple):
    flags: tuple[str, ...]
    takes_value: bool
    choices: tuple[str, ...]
    help: str


class Node(NamedTuple):
    """A group or command: its subcommands (name, help), options and positional choices."""

    commands: tuple[tuple[str, str], ...]
    options: tuple[Option, ...]
    values: tuple[str, ...]


def _help(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if text == argparse.SUPPRESS:
        return ""
    with contextlib.suppress(KeyError, TypeError, ValueError):
        text = text % {**vars(action), "prog": prog}
    return " ".join(text.split())


def walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ("embornal",)
) -> dict[tuple[str, ...], Node]:
    """Every group and command below ``parser`` (itself included), by its words."""
    out: dict[tuple[str, ...], Node] = {}
    options: list[Option] = []
    values: list[str] = []
    commands: list[tuple[str, str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {c.dest: c.help or "" for c in action._choices_actions}
            for name, child in action.choices.items():  # builds every parser
                commands.append((name, " ".join(helps.get(name, "").split())))
                out.update(walk(child, (*path, name)))
        elif action.option_strings:
            choices = tuple(str(c) for c in action.choices) if action.choices else ()
            options.append(
                Option(
                    tuple(action.option_strings),
                    action.nargs != 0,
                    choices,
                    _help(action, parser.prog),
                )
            )
        elif action.choices:
            values.extend(str(c) for c in action.choices)
    out[path] = Node(tuple(commands), tuple(options), tuple(values))
    return dict(sorted(out.items()))


def _sq(text: str) -> str:
    """``text`` single-quoted for bash and zsh."""
    return "'" + text.replace("'", "'\\''") + "'"


def _fq(text: str) -> str:
    """``text`` single-quoted for fish."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _flags(node: Node) -> list[str]:
    return [f for o in node.options for f in o.flags]


def _with_value(node: Node) -> list[str]:
    return [f for o in node.options if o.takes_value for f in o.flags]


def _bash(tree: dict[tuple[str, ...], Node]) -> str:
    cmds, opts, vals, choices = [], [], [], []
    for path, node in tree.items():
        key = _sq(" ".join(path))
        if node.commands:
            cmds.append(f"        {key}) echo {_sq(' '.join(n for n, _ in node.commands))} ;;")
        elif node.values:
            cmds.append(f"        {key}) echo {_sq(' '.join(node.values))} ;;")
        opts.append(f"        {key}) echo {_sq(' '.join(_flags(node)))} ;;")
        if _with_value(node):
            vals.append(f"        {key}) echo {_sq(' '.join(_with_value(node)))} ;;")
        for o in node.options:
            for flag in o.flags if o.choices else ():
                choices.append(
                    f"        {_sq(' '.join(path) + '|' + flag)}) "
                    f"echo {_sq(' '.join(o.choices))} ;;"
                )
    return f"""# bash completion for embornal, made by `embornal completion bash` from its parser.
# Install: embornal completion bash > ~/.local/share/bash-completion/completions/embornal
# (or source it from ~/.bashrc).

_embornal_words() {{
    case "$1" in
{chr(10).join(cmds)}
    esac
}}

_embornal_options() {{
    case "$1" in
{chr(10).join(opts)}
    esac
}}

_embornal_valued() {{
    case "$1" in
{chr(10).join(vals)}
    esac
}}

_embornal_choices() {{
    case "$1" in
{chr(10).join(choices)}
    esac
}}

_embornal() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    local at="embornal" word i skip=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        if ((skip)); then skip=0; continue; fi
        if [[ $word == -* ]]; then
            [[ $word != *=* && " $(_embornal_valued "$at") " == *" $word "* ]] && skip=1
            continue
        fi
        if [[ " $(_embornal_words "$at") " == *" $word "* ]] \\
            && [[ -n "$(_embornal_options "$at $word")" ]]; then
            at="$at $word"
        fi
    done
    COMPREPLY=()
    if [[ $prev == -* && " $(_embornal_valued "$at") " == *" $prev "* ]]; then
        local choices
        choices="$(_embornal_choices "$at|$prev")"
        if [[ -n $choices ]]; then
            mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
        fi
        return 0
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_embornal_options "$at")" -- "$cur")
        return 0
    fi
    local words
    words="$(_embornal_words "$at")"
    if [[ -n $words ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
    fi
    return 0
}}

complete -o bashdefault -o default -F _embornal embornal
"""


def _zsh(tree: dict[tuple[str, ...], Node]) -> str:
    lines = []
    for path, node in tree.items():
        key = _sq(" ".join(path))
        if node.commands:
            described = "\n".join(f"{n}:{h}" for n, h in node.commands)
            lines.append(f"_embornal_desc[{key}]={_sq(described)}")
            lines.append(f"_embornal_cmds[{key}]={_sq(' '.join(n for n, _ in node.commands))}")
        elif node.values:
            lines.append(f"_embornal_cmds[{key}]={_sq(' '.join(node.values))}")
        lines.append(f"_embornal_opts[{key}]={_sq(' '.join(_flags(node)))}")
        lines.append(f"_embornal_vals[{key}]={_sq(' '.join(_with_value(node)))}")
        for o in node.options:
            for flag in o.flags if o.choices else ():
                choice_key = _sq(" ".join(path) + "|" + flag)
                lines.append(f"_embornal_choices[{choice_key}]={_sq(' '.join(o.choices))}")
    return f"""#compdef embornal
# zsh completion for embornal, made by `embornal completion zsh` from its parser.
# Install: embornal completion zsh > ~/.zfunc/_embornal, with fpath+=(~/.zfunc) before
# compinit in ~/.zshrc (or source it after compinit).

typeset -gA _embornal_cmds _embornal_desc _embornal_opts _embornal_vals _embornal_choices
{chr(10).join(lines)}

_embornal() {{
    local at="embornal" word prev cur i skip=0
    for ((i = 2; i < CURRENT; i++)); do
        word="${{words[i]}}"
        if ((skip)); then skip=0; continue; fi
        if [[ $word == -* ]]; then
            [[ $word != *=* && " ${{_embornal_vals[$at]}} " == *" $word "* ]] && skip=1
            continue
        fi
        if [[ " ${{_embornal_cmds[$at]}} " == *" $word "* ]] \\
            && [[ -n ${{_embornal_opts[$at $word]}} ]]; then
            at="$at $word"
        fi
    done
    prev="${{words[CURRENT-1]}}"
    cur="${{words[CURRENT]}}"
    if [[ $prev == -* && " ${{_embornal_vals[$at]}} " == *" $prev "* ]]; then
        local choices="${{_embornal_choices[$at|$prev]}}"
        if [[ -n $choices ]]; then compadd -- ${{=choices}}; else _files; fi
        return
    fi
    if [[ $cur == -* ]]; then
        compadd -- ${{=_embornal_opts[$at]}}
        return
    fi
    if [[ -n ${{_embornal_desc[$at]}} ]]; then
        local -a described
        described=("${{(@f)_embornal_desc[$at]}}")
        _describe -t commands 'embornal command' described
    elif [[ -n ${{_embornal_cmds[$at]}} ]]; then
        compadd -- ${{=_embornal_cmds[$at]}}
    else
        _files
    fi
}}

if [[ ${{zsh_eval_context[-1]}} == loadautofunc ]]; then
    _embornal "$@"
else
    compdef _embornal embornal
fi
"""


def _fish(tree: dict[tuple[str, ...], Node]) -> str:
    lines = []
    for path, node in tree.items():
        at = _fq(" ".join(path))
        when = f"-n {_fq('__embornal_at ' + at)}"
        for name, text in node.commands:
            lines.append(f"complete -c embornal {when} -f -a {_fq(name)} -d {_fq(text)}")
        for value in node.values:
            lines.append(f"complete -c embornal {when} -f -a {_fq(value)}")
        for o in node.options:
            words = []
            for flag in o.flags:
                if flag.startswith("--"):
                    words.append(f"-l {_fq(flag[2:])}")
                elif len(flag) == 2:
                    words.append(f"-s {_fq(flag[1:])}")
                else:
                    words.append(f"-o {_fq(flag[1:])}")
            value = ""
            if o.choices:
                value = f" -x -a {_fq(' '.join(o.choices))}"
            elif o.takes_value:
                value = " -r"
            described = f" -d {_fq(o.help)}" if o.help else ""
            lines.append(f"complete -c embornal {when} {' '.join(words)}{value}{described}")
    valued = " ".join(sorted({f for n in tree.values() for f in _with_value(n)}))
    groups = "\n".join(
        f"        case {_fq(' '.join(p))}\n"
        f"            set subs {' '.join(_fq(n) for n, _ in node.commands)}"
        for p, node in tree.items()
        if node.commands
    )
    return f"""# fish completion for embornal, made by `embornal completion fish` from its parser.
# Install: embornal completion fish > ~/.config/fish/completions/embornal.fish

function __embornal_subs --argument-names at
    set -l subs
    switch $at
{groups}
    end
    printf '%s\\n' $subs
end

function __embornal_at --argument-names want
    set -l at embornal
    set -l skip 0
    set -l valued {valued}
    for word in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and contains -- $word $valued
                set skip 1
            end
            continue
        end
        if contains -- $word (__embornal_subs $at)
            set at "$at $word"
        end
    end
    test "$at" = "$want"
end

{chr(10).join(lines)}
"""


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``shell`` for every command ``parser`` holds."""
    tree = walk(parser)
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](tree)


def completion(ctx: Context) -> int:
    from embornal.interfaces.cli.tree import build_parser

    text = script(str(ctx.opt("shell")), build_parser())
    if ctx.json:
        ctx.emit({"shell": ctx.opt("shell"), "script": text})
    else:
        ctx.out.write(text)
    return 0
