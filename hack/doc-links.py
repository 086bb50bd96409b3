#!/usr/bin/env python3
"""Checks every relative link (and #anchor, GitHub-style) in README.md and docs/*.md.

Usage: hack/doc-links.py [REPO_ROOT]   (exit 1 and one line per broken link)
"""
import os, re, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
files = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)   # drop punctuation except - _ and spaces
    return h.replace(' ', '-')
def anchors(path):
    out, fence = set(), False
    for l in open(path, encoding='utf-8'):
        if l.startswith('```'): fence = not fence
        if fence: continue
        m = re.match(r'#+\s+(.*)', l)
        if m:
            out.add(slug(m.group(1)))
        out.update(re.findall(r'<a id="([^"]+)"', l))
    return out
bad = 0
for f in files:
    text = open(f, encoding='utf-8').read()
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    for target in re.findall(r'\]\(([^)\s]+)\)', text):
        if re.match(r'[a-z]+://', target) or target.startswith('mailto:'): continue
        path, _, frag = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            print(f'{f}: missing file {target}'); bad += 1; continue
        if frag and dest.endswith('.md') and frag not in anchors(dest):
            print(f'{f}: missing anchor {target}'); bad += 1
print(f'{len(files)} files checked, {bad} bad links')
sys.exit(1 if bad else 0)
