#!/usr/bin/env python3
"""Checks the operator-facing Markdown: README.md, CHANGELOG.md, docs/*.md,
docs/reference/*.md and the chart's README. Fails (exit 1, one line each) on
  - a relative link (or #anchor, GitHub-style) that points at nothing;
  - a test count in prose ("N tests", "N unit test cases", ...): counts rot,
    name the test files instead;
  - a flag table (a table headed "Flag", or whose rows start with `--flag`)
    outside docs/reference/: flags are documented only in the generated
    docs/reference/flags.md, which other pages link.
Fenced code blocks are skipped.

Usage: hack/doc-links.py [REPO_ROOT]
"""
import glob
import os
import re
import sys

TEST_COUNT = re.compile(
    r'\b\d[\d,]*\s+(?:[A-Za-z-]+\s+){0,2}?(?:tests|test cases|testcases|test programs|test suites)\b',
    re.I)
FLAG_CELL = re.compile(r'^`--?[a-z]')


def pages(root):
    listed = ['README.md', 'CHANGELOG.md', 'manifests/helm/dra-controller/README.md']
    found = [os.path.join(root, p) for p in listed if os.path.exists(os.path.join(root, p))]
    found += sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
    found += sorted(glob.glob(os.path.join(root, 'docs', 'reference', '*.md')))
    return found


def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)  # drop punctuation except - _ and spaces
    return h.replace(' ', '-')


def prose_lines(path):
    """(line number, line) outside fenced code blocks."""
    fence = False
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.startswith('```'):
            fence = not fence
            continue
        if not fence:
            yield number, line


def anchors(path):
    out = set()
    for _, line in prose_lines(path):
        m = re.match(r'#+\s+(.*)', line)
        if m:
            out.add(slug(m.group(1)))
        out.update(re.findall(r'<a id="([^"]+)"', line))
    return out


def bad_links(path):
    text = re.sub(r'```.*?```', '', open(path, encoding='utf-8').read(), flags=re.S)
    text = re.sub(r'`[^`\n]*`', '', text)  # a code span is no link
    for target in re.findall(r'\]\(([^)\s]+)\)', text):
        if re.match(r'[a-z]+://', target) or target.startswith('mailto:'):
            continue
        page, _, frag = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(path), page)) if page else path
        if not os.path.exists(dest):
            yield f'missing file {target}'
        elif frag and dest.endswith('.md') and frag not in anchors(dest):
            yield f'missing anchor {target}'


def cells(line):
    return [c.strip() for c in line.strip().strip('|').split('|')]


def tables(path):
    """(first line number, rows as cell lists) of each Markdown table."""
    rows, start = [], 0
    for number, line in list(prose_lines(path)) + [(0, '')]:
        if line.lstrip().startswith('|'):
            start = start or number
            rows.append(cells(line))
        elif rows:
            yield start, rows
            rows, start = [], 0


def is_flag_table(rows):
    if rows[0] and rows[0][0].lower() in ('flag', 'flags'):
        return True
    body = [r for r in rows[2:] if r]
    return sum(1 for r in body if FLAG_CELL.match(r[0])) >= 2


def problems(root, path):
    for problem in bad_links(path):
        yield problem
    for number, line in prose_lines(path):
        m = TEST_COUNT.search(line)
        if m:
            yield f'line {number}: test count in prose ("{m.group(0)}"); name the tests instead'
    if os.path.dirname(os.path.relpath(path, root)) != os.path.join('docs', 'reference'):
        for number, rows in tables(path):
            if is_flag_table(rows):
                yield (f'line {number}: a flag table; flags are listed only in '
                       'docs/reference/flags.md (link it)')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    files, bad = pages(root), 0
    for path in files:
        for problem in problems(root, path):
            print(f'{os.path.relpath(path, root)}: {problem}')
            bad += 1
    print(f'{len(files)} files checked, {bad} problems')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
