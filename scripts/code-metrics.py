#!/usr/bin/env python3
"""The figures ARCHITECTURE.md's rules are checked by: code lines per crate (blank lines,
comments and `#[cfg(test)]` modules left out), functions over 80 lines, files over 800 code
lines, and import circles between sibling modules.

    scripts/code-metrics.py            # the summary
    scripts/code-metrics.py --details  # and each long function, long file and circle

Run from anywhere; it reads the workspace's `*.rs` files (not `target/`, `fuzz/`, `tests/`).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRATES = ["src", "deals/src", "solver/src", "automation/src", "engine/src", "server/src"]
FN_LIMIT = 80
FILE_LIMIT = 800


def rust_files(top):
    """The product's source files: test modules kept in files of their own (`tests.rs`) aside."""
    for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
        for n in sorted(names):
            if n.endswith(".rs") and n != "tests.rs":
                yield os.path.join(dirpath, n)


def strip_test_modules(lines):
    """The lines outside `#[cfg(test)] mod ... { ... }` blocks."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]" and i + 1 < len(lines) and re.match(
            r"\s*(pub(\(crate\))? )?mod \w+\s*\{", lines[i + 1]
        ):
            depth, j = 0, i + 1
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                j += 1
                if depth <= 0:
                    break
            i = j
            continue
        out.append(lines[i])
        i += 1
    return out


def code_lines(lines):
    n, in_block = 0, False
    for line in lines:
        s = line.strip()
        if in_block:
            if "*/" in s:
                in_block = False
            continue
        if not s or s.startswith("//"):
            continue
        if s.startswith("/*"):
            in_block = "*/" not in s
            continue
        n += 1
    return n


FN_RE = re.compile(r"^\s*(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?(extern \"C\" )?fn (\w+)")


def blank_literals(lines):
    """The lines with string, char and raw-string literals and comments blanked (newlines
    kept), so that braces inside them are not counted."""
    text, out, i, n = "\n".join(lines), [], 0, None
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i : j + 1]))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^'\\])'", text[i:]):
            m = re.match(r"'(\\.|[^'\\])'", text[i:])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out).split("\n")


def long_functions(path, lines):
    """(name, length) of each function longer than FN_LIMIT lines, signature to closing brace."""
    found = []
    clean = blank_literals(lines)
    for i, line in enumerate(lines):
        m = FN_RE.match(line)
        if not m:
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            opened, closed = clean[j].count("{"), clean[j].count("}")
            depth += opened - closed
            if opened:
                started = True
            if clean[j].rstrip().endswith(";") and not started:
                break  # a declaration without a body
            if started and depth <= 0:
                break
            j += 1
        length = j - i + 1
        if started and length > FN_LIMIT:
            found.append((m.group(7), length))
    return found


def module_name(path):
    base = os.path.basename(path)[:-3]
    return os.path.basename(os.path.dirname(path)) if base == "mod" else base


def circles(top):
    """Pairs (or longer cycles) of sibling files that import each other."""
    by_dir = {}
    for path in rust_files(top):
        parent = os.path.dirname(path)
        if os.path.basename(path) == "mod.rs":
            parent = os.path.dirname(parent)
        by_dir.setdefault(parent, []).append(path)
    cycles = []
    for parent, paths in by_dir.items():
        names = {module_name(p): p for p in paths if os.path.basename(p) not in ("lib.rs", "main.rs")}
        graph = {}
        for name, p in names.items():
            kept = strip_test_modules(open(p, encoding="utf-8").read().splitlines())
            # Imports and paths in code; a doc comment's link is not an import.
            text = "\n".join(l for l in kept if not l.lstrip().startswith("//"))
            refs = set(re.findall(r"super::(\w+)", text))
            rel = os.path.relpath(os.path.dirname(p) if os.path.basename(p) != "mod.rs" else os.path.dirname(os.path.dirname(p)), os.path.join(ROOT, top))
            prefix = "crate::" + ("" if rel == "." else rel.replace(os.sep, "::") + "::")
            refs |= set(re.findall(re.escape(prefix) + r"(\w+)", text))
            graph[name] = {r for r in refs if r in names and r != name}
        cycles += [(parent, c) for c in strongly_connected(graph) if len(c) > 1]
    return cycles


def strongly_connected(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    details = "--details" in sys.argv
    total_fns, total_files, total_circles = [], [], []
    for top in CRATES:
        if not os.path.isdir(os.path.join(ROOT, top)):
            continue
        n = 0
        for path in rust_files(top):
            lines = open(path, encoding="utf-8").read().splitlines()
            kept = strip_test_modules(lines)
            c = code_lines(kept)
            n += c
            rel = os.path.relpath(path, ROOT)
            if c > FILE_LIMIT:
                total_files.append((rel, c))
            total_fns += [(rel, f, l) for f, l in long_functions(path, kept)]
        cyc = circles(top)
        total_circles += cyc
        print(f"{top:16} {n:6} code lines")
    print(f"functions over {FN_LIMIT} lines: {len(total_fns)}")
    print(f"files over {FILE_LIMIT} code lines: {len(total_files)}")
    print(f"import circles between sibling modules: {len(total_circles)}")
    if details:
        for rel, f, l in sorted(total_fns, key=lambda t: -t[2]):
            print(f"  fn {rel}::{f}: {l} lines")
        for rel, c in total_files:
            print(f"  file {rel}: {c} code lines")
        for parent, c in total_circles:
            print(f"  circle in {os.path.relpath(parent, ROOT)}: {' <-> '.join(c)}")


if __name__ == "__main__":
    main()
