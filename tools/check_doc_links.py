#!/usr/bin/env python3
"""Check the relative links of the project's Markdown documentation.

Every `](target)` link in README.md, BENCHMARKS.md, CHANGELOG.md and docs/*.md
(outside fenced code blocks) must name a file that exists, and a `#fragment`
into a Markdown file must match one of its headings (GitHub's slugs).
Usage: python3 tools/check_doc_links.py [REPOSITORY_ROOT]; exit status 1 on
any broken link.
"""
import glob
import os
import re
import sys


def slugs(path):
    """GitHub's anchors of a Markdown file's headings."""
    out = set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"^#+\s+(.*)", line)
        if m:
            text = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
            out.add(text.replace(" ", "-"))
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    files = [os.path.join(root, f) for f in ("README.md", "BENCHMARKS.md", "CHANGELOG.md")]
    files += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    problems = 0
    for f in files:
        text = re.sub(r"```.*?```", "", open(f, encoding="utf-8").read(), flags=re.S)
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            link = m.group(1)
            if re.match(r"[a-z]+:", link):
                continue  # https:, mailto:
            path, _, fragment = link.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(target):
                print(f"{os.path.relpath(f, root)}: {link}: no such file")
                problems += 1
            elif fragment and target.endswith(".md") and fragment not in slugs(target):
                print(f"{os.path.relpath(f, root)}: {link}: no such heading")
                problems += 1
    print(f"{len(files)} files, {problems} broken links")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
