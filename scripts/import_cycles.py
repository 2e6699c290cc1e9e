#!/usr/bin/env python3
"""Lists the circles of files that import each other inside each crate.

A file `a.rs` depends on `b.rs` when it names an item of b's module by path
(`crate::x::y`, `super::y`, `self::y` from a mod.rs, or a `use` of those). A
module naming its own ancestor or descendant does not count: a parent that
re-exports its children and a child that uses its parent's types is the usual
shape of a Rust module, not a circle. What is left is grouped into strongly
connected components; each component of two or more files is one circle.

Usage: scripts/import_cycles.py [crates-dir]   (prints the circles and a count)
"""
import os
import re
import sys

PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_BLOCK_RE = re.compile(r"\buse\s+(crate|super|self)::\{([^;]*)\};", re.S)


def modules(src):
    """Maps a module path (tuple) to its file, for one crate's src dir."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, f), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            out[tuple(parts)] = os.path.join(root, f)
    return out


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def refs(text):
    """Yields (anchor, [segments]) for every path starting at crate/super/self."""
    for m in USE_BLOCK_RE.finditer(text):
        anchor, body = m.group(1), m.group(2)
        for item in re.split(r",(?![^{]*\})", body):
            item = item.strip()
            if not item:
                continue
            head = re.split(r"::\{", item)[0]
            segs = [s for s in head.split("::") if s and re.match(r"^[A-Za-z_]\w*$", s)]
            if segs:
                yield anchor, segs
    for m in PATH_RE.finditer(text):
        yield m.group(1), m.group(2).strip(":").split("::")


def resolve(mods, here, anchor, segs):
    if anchor == "crate":
        base = ()
    elif anchor == "super":
        base = here[:-1]
        while segs and segs[0] == "super":
            base, segs = base[:-1], segs[1:]
    else:
        base = here
    path = base
    best = base if base in mods else None
    for s in segs:
        path = path + (s,)
        if path in mods:
            best = path
        else:
            break
    return best


def file_is_mod_rs(mods, key):
    return os.path.basename(mods[key]) in ("mod.rs", "lib.rs", "main.rs")


def crate_graph(src):
    mods = modules(src)
    graph = {k: set() for k in mods}
    for key, path in mods.items():
        # `self::` / `super::` in a non-mod.rs file are relative to the file's module.
        text = strip_comments(open(path, encoding="utf-8").read())
        for anchor, segs in refs(text):
            here = key
            if anchor == "super" and not file_is_mod_rs(mods, key):
                pass
            target = resolve(mods, here, anchor, segs)
            if target is None or target == key:
                continue
            # ancestor / descendant edges are the module tree, not a circle
            if target[: len(key)] == key or key[: len(target)] == target:
                continue
            graph[key].add(target)
    return mods, graph


def sccs(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
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
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "crates"
    total = 0
    for crate in sorted(os.listdir(root)):
        src = os.path.join(root, crate, "src")
        if not os.path.isdir(src):
            continue
        mods, graph = crate_graph(src)
        for comp in sccs(graph):
            if len(comp) > 1:
                total += 1
                names = sorted(os.path.relpath(mods[k], root) for k in comp)
                print(" - ".join(names))
    print(f"{total} circles")


if __name__ == "__main__":
    main()
