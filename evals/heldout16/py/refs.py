# Round 16 verification helper (docs/evals.md, "Round 16 (sealed)"; round 15's refs.py, unchanged). Needs jedi (0.19 or
# 0.20: pip install jedi).
#   python3 evals/heldout16/py/refs.py ROOT FILE LINE NAME
# References of the name NAME on FILE:LINE (jedi Script.get_references, scope project)
# under ROOT, tests excluded, each with the function or class around it (Python's ast).
import ast, os, sys
import jedi

root, file, line, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
project = jedi.Project(root)
path = os.path.join(root, file)
src = open(path, encoding='utf-8').read()
col = src.splitlines()[line - 1].index(name)
refs = jedi.Script(src, path=path, project=project).get_references(line, col, scope='project')

def around(p, l):
    tree = ast.parse(open(p, encoding='utf-8').read())
    best = '<module>'
    def visit(n, prefix):
        nonlocal best
        for c in ast.iter_child_nodes(n):
            if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if c.lineno <= l <= c.end_lineno:
                    best = f'{prefix}{c.name}@{c.lineno}'
                    visit(c, prefix + c.name + '.')
                    return
            visit(c, prefix)
    visit(tree, '')
    return best

for r in sorted(refs, key=lambda r: (str(r.module_path), r.line)):
    rel = os.path.relpath(str(r.module_path), root)
    if rel.startswith('tests') or '/tests/' in rel:
        continue
    text = open(str(r.module_path), encoding='utf-8').read().splitlines()[r.line - 1].strip()
    kind = 'DEF' if r.is_definition() else 'ref'
    print(f'{rel}:{r.line}\t{kind}\tin {around(str(r.module_path), r.line)}\t| {text[:80]}')
