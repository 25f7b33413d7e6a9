# Re-reads every expected path:line of the given suites: prints the line, the ctags tags on it,
# and counts blank lines or missing files (both must be 0). python3 evals/heldout3/check_lines.py evals/heldout3/*.toml
import sys, tomllib, os, subprocess, re
for suite in sys.argv[1:]:
    d = tomllib.load(open(suite, 'rb'))
    repo = os.path.normpath(os.path.join(os.path.dirname(suite), d['suite']['repo']))
    tags = {}
    out = subprocess.run(['ctags','-R','--fields=+n','--languages=Go','-f','-','.'],cwd=repo,capture_output=True,text=True).stdout
    for line in out.splitlines():
        p = line.split('\t')
        m = re.search(r'\tline:(\d+)', line)
        if m: tags.setdefault((p[1], int(m.group(1))), []).append(p[0])
    bad = 0
    for c in d['case']:
        files = [f if isinstance(f,str) else f['path'] for f in c.get('files',[])]
        for f in files:
            if not os.path.isfile(os.path.join(repo,f)): print('MISSING FILE', c['id'], f); bad += 1
        for loc in c.get('locations',[]):
            at = loc if isinstance(loc,str) else loc['at']
            f, l = at.rsplit(':',1); l=int(l)
            if f not in files: print('LOC FILE NOT IN FILES', c['id'], f)
            text = open(os.path.join(repo,f)).read().splitlines()[l-1]
            if not text.strip(): print('BLANK', c['id'], at); bad += 1
            t = tags.get((f,l), [])
            print(f"{c['id']:32} {c['kind']:15} {at:38} tag={','.join(t) or '-':22} | {text.strip()[:70]}")
    print(suite, 'cases', len(d['case']), 'bad', bad)
