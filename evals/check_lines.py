# Re-reads every expected path:line of the given suites: prints the line, the ctags tags on it,
# and counts blank lines, missing files and locations outside `files` (all must be 0).
#   python3 evals/check_lines.py evals/heldout4/*.toml   (any round: heldout4, heldout5, …)
# ctags tags Go, Python, TypeScript and Rust (round 7 added the last two; universal-ctags
# 5.9 misses TypeScript class members declared after a `#private` field, so a `-` there is
# not a missing definition: round 7's notes name the TypeScript compiler's line instead),
# and JavaScript and Java (round 8; ctags 5.9 drops a few JavaScript methods after object
# destructuring, e.g. luxon's DateTime.fromISO, whose notes name the TypeScript compiler's
# line). Round 9: ctags 5.9 misses immer's Immer members and the classes declared inside
# enableMapSet (DraftMap, DraftSet); their notes name the TypeScript compiler's line.
import os, re, subprocess, sys, tomllib

bad_total = 0
for suite in sys.argv[1:]:
    d = tomllib.load(open(suite, 'rb'))
    repo = os.path.normpath(os.path.join(os.path.dirname(suite), d['suite']['repo']))
    tags = {}
    out = subprocess.run(['ctags', '-R', '--fields=+n', '--languages=Go,Python,TypeScript,Rust,JavaScript,Java', '-f', '-', '.'],
                         cwd=repo, capture_output=True).stdout.decode('utf-8', 'replace')
    for line in out.splitlines():
        p = line.split('\t')
        m = re.search(r'\tline:(\d+)', line)
        if m:
            tags.setdefault((p[1].removeprefix('./'), int(m.group(1))), []).append(p[0])
    bad = 0
    ids = set()
    for c in d['case']:
        if c['id'] in ids:
            print('DUPLICATE ID', c['id']); bad += 1
        ids.add(c['id'])
        files = [f if isinstance(f, str) else f['path'] for f in c.get('files', [])]
        for f in files:
            if not os.path.isfile(os.path.join(repo, f)):
                print('MISSING FILE', c['id'], f); bad += 1
        for loc in c.get('locations', []):
            at = loc if isinstance(loc, str) else loc['at']
            f, l = at.rsplit(':', 1); l = int(l)
            if f not in files:
                print('LOC FILE NOT IN FILES', c['id'], f); bad += 1
            text = open(os.path.join(repo, f), encoding='utf-8').read().splitlines()[l - 1]
            if not text.strip():
                print('BLANK', c['id'], at); bad += 1
            t = tags.get((f, l), [])
            print(f"{c['id']:42} {c['kind']:15} {at:40} tag={','.join(t) or '-':22} | {text.strip()[:70]}")
    print(suite, 'cases', len(d['case']), 'bad', bad)
    bad_total += bad
sys.exit(1 if bad_total else 0)
