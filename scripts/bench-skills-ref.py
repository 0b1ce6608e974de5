#!/usr/bin/env python3
"""Time skills-ref (the Agent Skills reference validator) over every skill of a corpus.

    bench-skills-ref.py CORPUS_DIR

Finds every folder under CORPUS_DIR holding a `SKILL.md` that is a regular file (a symlinked
`SKILL.md` counts only if it resolves to a regular file inside CORPUS_DIR; symlinked folders are
not entered), then, in this one Python process, calls `skills_ref.validate(folder)` on each of them.

The import of skills_ref and the interpreter start are not timed. Two figures are timed:
  discover  the walk that finds the skill folders (skillguard walks too);
  validate  the validate() calls alone (the conservative figure: it leaves the walk out).

The last line is machine-readable, for scripts/bench.sh:
    RESULT skills=N invalid=N crashed=N discover_s=S validate_s=S total_s=S per_skill_ms=MS
Needs skills-ref installed in the running Python:
    python3 -m venv /tmp/skills-ref-venv && /tmp/skills-ref-venv/bin/pip install skills-ref
"""

import os
import sys
import time


def find_skill_dirs(root: str) -> list[str]:
    root_real = os.path.realpath(root)
    found = []
    # followlinks=False: a symlinked folder is never entered, so nothing outside root is walked.
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        if "SKILL.md" not in filenames:
            continue
        skill_md = os.path.join(dirpath, "SKILL.md")
        if os.path.islink(skill_md):
            target = os.path.realpath(skill_md)
            if os.path.commonpath([root_real, target]) != root_real:
                continue  # the link leaves the corpus
        if os.path.isfile(skill_md):  # follows an in-corpus link; dangling links fail here
            found.append(dirpath)
    return found


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        from skills_ref import validate
    except ImportError:
        print(
            "skills_ref is not importable by %s; install it with:\n"
            "  python3 -m venv /tmp/skills-ref-venv && "
            "/tmp/skills-ref-venv/bin/pip install skills-ref" % sys.executable,
            file=sys.stderr,
        )
        return 3

    root = sys.argv[1]
    t0 = time.perf_counter()
    dirs = find_skill_dirs(root)
    t1 = time.perf_counter()
    invalid = crashed = 0
    for d in dirs:
        try:
            if validate(d):
                invalid += 1
        except Exception:  # e.g. UnicodeDecodeError: skills-ref itself does not catch it
            crashed += 1
    t2 = time.perf_counter()

    n = len(dirs)
    discover, validating, total = t1 - t0, t2 - t1, t2 - t0
    per_skill_ms = validating * 1000 / n if n else 0.0
    print(f"skills-ref validate() on {root}: {n} skills ({invalid} invalid, {crashed} raised)")
    print(f"  discover {discover:.3f} s, validate {validating:.3f} s, total {total:.3f} s, "
          f"{per_skill_ms:.3f} ms per skill (validate only)")
    print(f"RESULT skills={n} invalid={invalid} crashed={crashed} discover_s={discover:.6f} "
          f"validate_s={validating:.6f} total_s={total:.6f} per_skill_ms={per_skill_ms:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
