// Round 15 verification helper (docs/evals.md, "Round 15 (sealed)"; round 14's decls.js, unchanged but for these comments: it reads @reduxjs/toolkit's src/). Needs the npm package
// typescript (5.4.5 was used): npm install --prefix /tmp/tstools typescript@5.4.5, then
// NODE_PATH=/tmp/tstools/node_modules node evals/heldout15/ts/decls.js target/heldout15/reduxjs-toolkit-1.9.7 ...
// node decls.js ROOT [files...]: every class, method, function, interface, type, enum and
// top-level const of the given files, with its 1-based line (TypeScript compiler API).
const ts = require('typescript'), fs = require('fs'), path = require('path');
const root = process.argv[2];
for (const f of process.argv.slice(3)) {
  const src = ts.createSourceFile(f, fs.readFileSync(path.join(root, f), 'utf8'), ts.ScriptTarget.Latest, true);
  const line = n => src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1;
  const nameOf = n => n.name ? n.name.getText(src) : '(anon)';
  function visit(n, scope) {
    let s = scope;
    if (ts.isClassDeclaration(n)) { console.log(`${f}:${line(n)}\tclass\t${nameOf(n)}\t${scope}`); s = nameOf(n); }
    else if (ts.isMethodDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n) || ts.isConstructorDeclaration(n)) console.log(`${f}:${line(n)}\tmethod\t${ts.isConstructorDeclaration(n)?'constructor':nameOf(n)}\t${scope}`);
    else if (ts.isPropertyDeclaration(n) && n.initializer && (ts.isArrowFunction(n.initializer)||ts.isFunctionExpression(n.initializer))) console.log(`${f}:${line(n)}\tmethod-prop\t${nameOf(n)}\t${scope}`);
    else if (ts.isFunctionDeclaration(n)) { console.log(`${f}:${line(n)}\tfunction\t${nameOf(n)}\t${scope}`); s = nameOf(n); }
    else if (ts.isInterfaceDeclaration(n)) console.log(`${f}:${line(n)}\tinterface\t${nameOf(n)}\t${scope}`);
    else if (ts.isTypeAliasDeclaration(n)) console.log(`${f}:${line(n)}\ttype\t${nameOf(n)}\t${scope}`);
    else if (ts.isEnumDeclaration(n)) console.log(`${f}:${line(n)}\tenum\t${nameOf(n)}\t${scope}`);
    else if (ts.isVariableStatement(n) && scope === '') for (const d of n.declarationList.declarations) console.log(`${f}:${line(d)}\tconst\t${d.name.getText(src)}\t${scope}`);
    else if (ts.isVariableDeclaration(n) && n.initializer && (ts.isArrowFunction(n.initializer)||ts.isFunctionExpression(n.initializer)) && scope !== '') console.log(`${f}:${line(n)}\tinner-fn\t${nameOf(n)}\t${scope}`);
    ts.forEachChild(n, c => visit(c, s));
  }
  visit(src, '');
}
