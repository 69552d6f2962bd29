#!/usr/bin/env bash
# Seed the fuzz corpora from every .dotc file the repository ships: the tutorial scenarios and
# logs, the stdlib libraries, the broken-file fixtures, and any regression inputs kept in
# fuzz/regressions/. fuzz/corpus is git-ignored; re-run this after adding shipped files.
#
# Usage: fuzz/seed.sh            (from anywhere)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
for target in parse_check format; do
    dest="$here/corpus/$target"
    mkdir -p "$dest"
    count=0
    while IFS= read -r -d '' file; do
        # Name each seed after its path so re-seeding overwrites rather than duplicates.
        rel="${file#"$root"/}"
        cp "$file" "$dest/seed-${rel//\//_}"
        count=$((count + 1))
    done < <(find "$root/scenarios" "$root/stdlib" "$root/tests/fixtures" "$here/regressions" \
                 -type f -name '*.dotc' -print0 2>/dev/null | sort -z)
    echo "seeded $count files into ${dest#"$root"/}"
done
