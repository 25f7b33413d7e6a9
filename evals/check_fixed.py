# Checks every issue-report case of the given suites against both sides of its fix: each
# expected file exists in the tree asked against (NAME-BEFORE) and differs in the next
# fetched release of the same package (NAME-AFTER, the release with the fix). Needs
# `bash evals/issuesN/fetch.sh --with-fixed` for the round asked.
#   python3 evals/check_fixed.py evals/issues4/*.toml
import filecmp, os, re, sys, tomllib

def key(v):
    return tuple(int(x) for x in v.split('.'))

bad = 0
for suite in sys.argv[1:]:
    d = tomllib.load(open(suite, 'rb'))
    base = os.path.dirname(suite)
    for c in d['case']:
        repo = os.path.normpath(os.path.join(base, c.get('repo', d['suite']['repo'])))
        name, ver = re.match(r'(.+)-([\d.]+)$', os.path.basename(repo)).groups()
        root = os.path.dirname(repo)
        later = sorted((key(m.group(1)), m.group(1)) for e in os.listdir(root)
                       if (m := re.match(re.escape(name) + r'-([\d.]+)$', e)) and key(m.group(1)) > key(ver))
        if not later:
            print('NO FIXED TREE', c['id'], repo); bad += 1; continue
        fixed = os.path.join(root, f'{name}-{later[0][1]}')
        for f in c['files']:
            f = f if isinstance(f, str) else f['path']
            old, new = os.path.join(repo, f), os.path.join(fixed, f)
            if not os.path.isfile(old):
                print('MISSING', c['id'], old); bad += 1
            elif not os.path.isfile(new) or filecmp.cmp(old, new, shallow=False):
                print('UNCHANGED', c['id'], f); bad += 1
            else:
                print(f"{c['id']:26} {name}-{ver} -> {later[0][1]:8} {f}")
print('bad', bad)
sys.exit(1 if bad else 0)
