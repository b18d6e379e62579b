#!/usr/bin/env python3
"""docs/architecture.md against the code, cheaply (no build needed).

1. Every product folder holding sources has a row in "What lives in each folder", and every row
   names a folder that exists.
2. The floors the map declares (its ```floors block: "layer: a < b c < d", lowest first, folders
   on one floor separated by spaces) hold: no file includes a folder on a higher floor of its
   layer, folders on one floor do not include each other, and every sub-folder of a layer with
   floors is on one.
3. Every executable the tests, benchmarks and fuzzers build (add_executable, and the names a
   foreach over executables makes) is named in the map.

Usage: check_map.py SOURCE_DIR. Prints each breach with the file and the include; exit 1 if any.
"""
import os
import re
import sys

PRODUCT = ("core", "async", "launcher", "history", "ui", "app")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def source_folders(root):
    """Folders (relative, with a trailing slash) that hold .h or .cpp files of the product."""
    found = set()
    for top in PRODUCT:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            if any(f.endswith((".h", ".cpp")) for f in files):
                found.add(os.path.relpath(dirpath, root).replace(os.sep, "/") + "/")
    return found


def map_rows(text):
    """The folders named in the first column of the "What lives in each folder" table."""
    section = text.split("## What lives in each folder", 1)
    if len(section) < 2:
        return None
    rows = set()
    for line in section[1].split("\n## ", 1)[0].splitlines():
        m = re.match(r"^\|\s*`([^`]+/)`\s*\|", line)
        if m:
            rows.add(m.group(1))
    return rows


def declared_floors(text):
    """{layer: [[folder, ...] per floor, lowest first]} from the ```floors block."""
    m = re.search(r"```floors\n(.*?)```", text, re.S)
    if not m:
        return None
    floors = {}
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        layer, _, rest = line.partition(":")
        floors[layer.strip()] = [group.split() for group in rest.split("<")]
    return floors


def includes_by_folder(root, layer):
    """[(file, its folder, included folder, include)] for includes within one layer."""
    out = []
    base = os.path.join(root, layer)
    for dirpath, _, files in os.walk(base):
        here = os.path.relpath(dirpath, base).replace(os.sep, "/")
        here = here.split("/", 1)[0] if here != "." else ""
        for name in files:
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = INCLUDE.match(line)
                    if not m or not m.group(1).startswith(layer + "/"):
                        continue
                    parts = m.group(1).split("/")
                    there = parts[1] if len(parts) > 2 else ""
                    if there != here:
                        out.append((os.path.relpath(path, root), here, there, m.group(1)))
    return out


def built_executables(root):
    """Names of the executables that tests/, bench/ and fuzz/ build, from their CMakeLists."""
    names = set()
    for top in ("tests", "bench", "fuzz"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            if "CMakeLists.txt" not in files:
                continue
            with open(os.path.join(dirpath, "CMakeLists.txt"), encoding="utf-8") as f:
                text = f.read()
            names.update(re.findall(r"add_executable\(\s*([A-Za-z0-9_]+)\s", text))
            for var, listed, body in re.findall(r"foreach\(\s*(\w+)\s+([^)]*)\)(.*?)endforeach", text, re.S):
                if "add_executable(${" + var + "}" in body:
                    names.update(listed.split())
    names = {n for n in names if not n.startswith("${")}
    return names


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    problems = []

    rows = map_rows(text)
    if rows is None:
        problems.append('docs/architecture.md has no "## What lives in each folder" section')
        rows = set()
    folders = source_folders(root)
    for folder in sorted(folders - rows):
        problems.append(f"{folder} holds sources but has no row in docs/architecture.md")
    for folder in sorted(rows - folders):
        problems.append(f"docs/architecture.md has a row for {folder}, which holds no sources")

    floors = declared_floors(text)
    if floors is None:
        problems.append("docs/architecture.md has no ```floors block")
        floors = {}
    for layer, groups in floors.items():
        level = {folder: i for i, group in enumerate(groups) for folder in group}
        subfolders = {f.split("/")[1] for f in folders if f.startswith(layer + "/") and f.count("/") > 1}
        for sub in sorted(subfolders - set(level)):
            problems.append(f"{layer}/{sub}/ is on no floor of the map's ```floors block")
        for sub in sorted(set(level) - subfolders):
            problems.append(f"the ```floors block names {layer}/{sub}/, which holds no sources")
        for path, here, there, include in includes_by_folder(root, layer):
            if here not in level or there not in level:
                continue
            if level[there] > level[here]:
                problems.append(f"{path} includes {include}: {layer}/{there}/ is above {layer}/{here}/")
            elif level[there] == level[here]:
                problems.append(f"{path} includes {include}: {layer}/{there}/ is on the same floor as {layer}/{here}/")

    for name in sorted(built_executables(root)):
        if f"`{name}`" not in text:
            problems.append(f"{name} is built but docs/architecture.md does not name it")

    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} difference(s) between docs/architecture.md and the code")
        return 1
    print(f"docs/architecture.md: {len(folders)} folders, each with its row; "
          f"floors of {', '.join(sorted(floors))} hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
