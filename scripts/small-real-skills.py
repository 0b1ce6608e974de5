#!/usr/bin/env python3
"""Copy the small real skills of a corpus into one repository, to measure the per-skill cost.

    scripts/small-real-skills.py OUT [--corpus ../shared/corpora] [--max-bytes 8192] [--every 1]

A skill is a folder with a SKILL.md and no SKILL.md deeper down; it is small when all its files
together are at most --max-bytes. Each one is copied to OUT/skills/NNNNN-NAME. --every K keeps
every K-th small skill only: the set and its half (--every 2) differ by real skills of the same
mix, so the difference of their scan times is the marginal cost of a skill, without the fixed
start-up cost (copies of one set would add name collisions and twins, which cost extra).
Symbolic links are skipped. OUT must not exist. Used by docs/performance.md ("Per-skill cost").
"""
import argparse
import os
import shutil
import sys


def skill_dirs(root):
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        if "SKILL.md" in filenames:
            yield dirpath


def folder_size(path):
    total = 0
    for dirpath, _, filenames in os.walk(path, followlinks=False):
        for f in filenames:
            p = os.path.join(dirpath, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


def has_nested_skill(path):
    for dirpath, _, filenames in os.walk(path, followlinks=False):
        if dirpath != path and "SKILL.md" in filenames:
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--corpus", default="../shared/corpora")
    ap.add_argument("--max-bytes", type=int, default=8192)
    ap.add_argument("--every", type=int, default=1)
    a = ap.parse_args()
    if os.path.exists(a.out):
        sys.exit(f"{a.out} exists")
    picked = [
        d
        for d in skill_dirs(a.corpus)
        if not has_nested_skill(d) and folder_size(d) <= a.max_bytes
    ]
    picked = picked[:: max(a.every, 1)]
    if not picked:
        sys.exit(f"no skill of at most {a.max_bytes} bytes under {a.corpus}")
    for n, d in enumerate(picked):
        name = os.path.basename(d.rstrip("/"))
        dest = os.path.join(a.out, "skills", f"{n:05d}-{name}")
        shutil.copytree(d, dest, symlinks=True, ignore=lambda _d, fs: [
            f for f in fs if os.path.islink(os.path.join(_d, f))])
    total = sum(folder_size(os.path.join(a.out, "skills", e)) for e in os.listdir(os.path.join(a.out, "skills")))
    print(f"{len(picked)} skills, {total} bytes in {a.out}")


if __name__ == "__main__":
    main()
