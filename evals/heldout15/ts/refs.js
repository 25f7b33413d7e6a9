// Round 15 verification helper (docs/evals.md, "Round 15 (sealed)"; round 14's refs.js, unchanged but for these comments: it reads @reduxjs/toolkit's src/). Needs the npm package
// typescript (5.4.5 was used): npm install --prefix /tmp/tstools typescript@5.4.5, then
// NODE_PATH=/tmp/tstools/node_modules node evals/heldout15/ts/refs.js "$PWD/target/heldout15/reduxjs-toolkit-1.9.7" ...
// node refs.js ROOT FILE LINE NAME: references of the symbol NAME declared on FILE:LINE
// (TypeScript language service findReferences over every .ts and .js file under ROOT/src, allowJs), with the
// function, method or class around each reference.
const ts = require('typescript'), fs = require('fs'), path = require('path');
const [root, file, lineS, name] = process.argv.slice(2);
const files = [];
(function walk(d) { for (const e of fs.readdirSync(d, {withFileTypes: true})) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (/\.(tsx?|jsx?|mjs)$/.test(e.name)) files.push(p); } })(path.join(root, 'src'));
const host = {
  getScriptFileNames: () => files, getScriptVersion: () => '1',
  getScriptSnapshot: f => fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8')) : undefined,
  getCurrentDirectory: () => root, getCompilationSettings: () => ({target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, noEmit: true, strict: true, allowJs: true, checkJs: false}),
  getDefaultLibFileName: o => ts.getDefaultLibFilePath(o), fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
};
const ls = ts.createLanguageService(host);
const full = path.join(root, file), text = fs.readFileSync(full, 'utf8');
const lines = text.split('\n'); let pos = 0; for (let i = 0; i < +lineS - 1; i++) pos += lines[i].length + 1;
pos += lines[+lineS - 1].indexOf(name);
const prog = ls.getProgram();
function around(f, p) {
  const sf = prog.getSourceFile(f); let best = '<top>';
  (function v(n) { if (n.getStart(sf) <= p && p < n.getEnd()) { if ((ts.isFunctionDeclaration(n)||ts.isMethodDeclaration(n)||ts.isClassDeclaration(n)||ts.isConstructorDeclaration(n)||ts.isGetAccessor(n)) ) best = (n.name ? n.name.getText(sf) : 'constructor') + '@' + (sf.getLineAndCharacterOfPosition(n.getStart(sf)).line+1); else if (ts.isVariableDeclaration(n) && n.initializer && (ts.isArrowFunction(n.initializer)||ts.isFunctionExpression(n.initializer))) best = n.name.getText(sf)+'@'+(sf.getLineAndCharacterOfPosition(n.getStart(sf)).line+1); ts.forEachChild(n, v); } })(sf);
  return best;
}
const out = [];
for (const r of ls.findReferences(full, pos) || []) for (const e of r.references) {
  const sf = prog.getSourceFile(e.fileName); const lc = sf.getLineAndCharacterOfPosition(e.textSpan.start);
  const rel = path.relative(root, e.fileName);
  if (rel.includes('/tests/')) continue;
  out.push(`${rel}:${lc.line + 1}\t${e.isDefinition ? 'DEF' : 'ref'}\tin ${around(e.fileName, e.textSpan.start)}\t| ${sf.text.split('\n')[lc.line].trim().slice(0, 90)}`);
}
console.log([...new Set(out)].sort().join('\n'));
