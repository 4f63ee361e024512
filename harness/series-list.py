#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Rewrite patches/series for harness/export-patches.sh, which runs it.

    OVERLAY_DIRS="..." harness/series-list.py <worktree> <patches dir>

export-patches.sh writes one patch per commit of the worktree (base..HEAD),
numbered anew. This lists them in patches/series again: each patch, then a
'+ path' line for each new file (under OVERLAY_DIRS, harness/common.sh)
that its commit adds.
The header comment is kept, and so is every '== name' line with the comment
lines just before it: it stays before the patch of the same name but for its
number, so a series keeps its first patch when patches are renumbered.
"""
import os
import re
import subprocess
import sys

def slug(patch):
    """A patch file's name without its number."""
    return re.sub(r'^\d{4}-', '', patch.strip())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wt, pdir = sys.argv[1], sys.argv[2]
    overlay_dirs = os.environ['OVERLAY_DIRS'].split()
    series = os.path.join(pdir, 'series')
    old = open(series).read().split('\n')

    header = []
    while old and old[0].startswith('#'):
        header.append(old.pop(0))

    # '== name' lines with their comments, by the slug of the next patch
    starts, pending = {}, []
    for line in old:
        if line.startswith(('#', '==')):
            pending.append(line)
        elif line.strip() and not line.startswith('+'):
            if any(l.startswith('==') for l in pending):
                starts[slug(line)] = pending
            pending = []

    def git(*args):
        return subprocess.check_output(['git', '-C', wt] + list(args)).decode()

    commits = git('rev-list', '--reverse', 'base..HEAD').split()
    patches = sorted(p for p in os.listdir(pdir)
                     if re.match(r'\d{4}-.*\.patch$', p))
    if len(patches) != len(commits):
        sys.exit('series-list: %d patches for %d commits'
                 % (len(patches), len(commits)))
    out = header[:]
    for commit, patch in zip(commits, patches):
        if slug(patch) in starts:
            out.append('')
            out.extend(starts.pop(slug(patch)))
        out.append(patch)
        added = git('diff-tree', '--no-commit-id', '-r', '--diff-filter=A',
                    '--name-only', commit).split()
        out.extend('+ ' + f for f in added if f.split('/')[0] in overlay_dirs)
    if starts:
        sys.exit('series-list: no patch named %s any more: move its "==" line'
                 % ', '.join(sorted(starts)))
    open(series, 'w').write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
